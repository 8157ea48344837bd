import type { Glyph } from './types';

/**
 * Flat product drawings for the generated demo pictures, each in a 200 × 200 box. `f` is the
 * product's finish colour; the other colours are fixed so every store's pictures share one style.
 */
const GLOW = '#fde68a';
const INK = '#292524';
const STEEL = '#a8a29e';
const WOOD = '#b7865a';
const LEAF = '#4d7c0f';
const LEAF2 = '#65a30d';
const SOIL = '#57432f';

const leaf = (cx: number, cy: number, rx: number, ry: number, rot: number, fill = LEAF) =>
  `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" transform="rotate(${rot} ${cx} ${cy})" fill="${fill}"/>`;

export const GLYPHS: Record<Glyph, (f: string) => string> = {
  pendant: (f) =>
    `<line x1="100" y1="0" x2="100" y2="72" stroke="${INK}" stroke-width="3"/><rect x="92" y="64" width="16" height="12" rx="2" fill="${INK}"/>` +
    `<circle cx="100" cy="128" r="18" fill="${GLOW}" opacity=".9"/><path d="M42 130 Q42 74 100 74 Q158 74 158 130 Z" fill="${f}"/>` +
    `<path d="M42 130 L158 130" stroke="#000" stroke-opacity=".15" stroke-width="3"/>`,
  chandelier: (f) =>
    `<line x1="100" y1="0" x2="100" y2="70" stroke="${INK}" stroke-width="3"/><circle cx="100" cy="86" r="16" fill="${f}"/>` +
    [30, 65, 100, 135, 170]
      .map(
        (x, i) =>
          `<path d="M100 90 Q${(x + 100) / 2} ${120 + (i % 2) * 6} ${x} ${100 + Math.abs(100 - x) / 3}" stroke="${f}" stroke-width="5" fill="none"/>` +
          `<rect x="${x - 5}" y="${86 + Math.abs(100 - x) / 3}" width="10" height="14" fill="${f}"/><circle cx="${x}" cy="${78 + Math.abs(100 - x) / 3}" r="8" fill="${GLOW}"/>`,
      )
      .join(''),
  'floor-lamp': (f) =>
    `<path d="M62 70 L138 70 L124 18 L76 18 Z" fill="#f5f5f4" stroke="${f}" stroke-width="4"/>` +
    `<line x1="100" y1="70" x2="100" y2="182" stroke="${f}" stroke-width="6"/><ellipse cx="100" cy="184" rx="34" ry="7" fill="${f}"/>`,
  'table-lamp': (f) =>
    `<path d="M56 92 L144 92 L128 34 L72 34 Z" fill="#faf7f2" stroke="#d6d3d1" stroke-width="3"/>` +
    `<line x1="100" y1="92" x2="100" y2="112" stroke="${INK}" stroke-width="4"/>` +
    `<path d="M78 176 Q62 146 82 116 L118 116 Q138 146 122 176 Z" fill="${f}"/><rect x="74" y="174" width="52" height="8" rx="3" fill="${INK}"/>`,
  'desk-lamp': (f) =>
    `<ellipse cx="64" cy="180" rx="36" ry="8" fill="${f}"/><line x1="64" y1="176" x2="92" y2="104" stroke="${f}" stroke-width="7" stroke-linecap="round"/>` +
    `<line x1="92" y1="104" x2="142" y2="74" stroke="${f}" stroke-width="7" stroke-linecap="round"/><circle cx="92" cy="104" r="7" fill="${INK}"/>` +
    `<path d="M128 62 L170 92 L150 118 L118 84 Z" fill="${f}"/><ellipse cx="160" cy="106" rx="14" ry="6" transform="rotate(37 160 106)" fill="${GLOW}"/>`,
  sconce: (f) =>
    `<rect x="36" y="60" width="22" height="70" rx="6" fill="${f}"/><path d="M58 96 L110 96" stroke="${f}" stroke-width="6"/>` +
    `<circle cx="130" cy="100" r="14" fill="${GLOW}"/><path d="M98 122 Q98 70 130 70 Q162 70 162 122 Z" fill="${f}" opacity=".92"/>`,
  flush: (f) =>
    `<rect x="20" y="40" width="160" height="6" fill="#d6d3d1"/><path d="M40 46 L160 46 Q160 112 100 112 Q40 112 40 46 Z" fill="#fafaf9" stroke="${f}" stroke-width="5"/>` +
    `<circle cx="100" cy="128" r="4" fill="${f}"/><ellipse cx="100" cy="80" rx="36" ry="14" fill="${GLOW}" opacity=".6"/>`,
  track: (f) =>
    `<rect x="14" y="44" width="172" height="10" rx="5" fill="${f}"/>` +
    [44, 100, 156]
      .map(
        (x, i) =>
          `<g transform="rotate(${(i - 1) * 18} ${x} 54)"><line x1="${x}" y1="54" x2="${x}" y2="78" stroke="${INK}" stroke-width="4"/><rect x="${x - 16}" y="76" width="32" height="58" rx="8" fill="${f}"/><ellipse cx="${x}" cy="134" rx="14" ry="5" fill="${GLOW}"/></g>`,
      )
      .join(''),
  vanity: (f) =>
    `<rect x="20" y="86" width="160" height="12" rx="6" fill="${f}"/>` +
    [45, 100, 155]
      .map(
        (x) =>
          `<line x1="${x}" y1="92" x2="${x}" y2="110" stroke="${f}" stroke-width="4"/><circle cx="${x}" cy="126" r="22" fill="#fafaf9" stroke="#e7e5e4" stroke-width="2"/>`,
      )
      .join(''),
  lantern: (f) =>
    `<path d="M64 60 L100 30 L136 60 Z" fill="${f}"/><rect x="70" y="60" width="60" height="92" fill="${GLOW}" stroke="${f}" stroke-width="8"/>` +
    `<line x1="100" y1="60" x2="100" y2="152" stroke="${f}" stroke-width="4"/><rect x="62" y="150" width="76" height="12" fill="${f}"/><rect x="92" y="18" width="16" height="14" fill="${f}"/>`,
  'path-light': (f) =>
    `<path d="M62 60 Q100 30 138 60 Z" fill="${f}"/><rect x="80" y="60" width="40" height="30" fill="${GLOW}"/><rect x="74" y="88" width="52" height="8" fill="${f}"/>` +
    `<rect x="94" y="96" width="12" height="84" fill="${f}"/><path d="M40 184 Q100 168 160 184" stroke="${LEAF}" stroke-width="8" fill="none"/>`,
  string: (f) =>
    `<path d="M0 40 Q100 120 200 40" stroke="${INK}" stroke-width="3" fill="none"/>` +
    [20, 55, 100, 145, 180]
      .map((x) => {
        const y = 40 + 80 * (1 - ((x - 100) / 100) ** 2) * 0.5;
        return `<line x1="${x}" y1="${y}" x2="${x}" y2="${y + 14}" stroke="${INK}" stroke-width="3"/><rect x="${x - 6}" y="${y + 12}" width="12" height="8" fill="${f}"/><circle cx="${x}" cy="${y + 32}" r="13" fill="${GLOW}"/>`;
      })
      .join(''),
  bulb: (f) =>
    `<circle cx="100" cy="78" r="50" fill="${GLOW}" opacity=".35"/><path d="M100 30 C60 30 50 70 68 96 C78 110 80 120 80 132 L120 132 C120 120 122 110 132 96 C150 70 140 30 100 30 Z" fill="#fef9c3" stroke="${f}" stroke-width="4"/>` +
    `<path d="M88 100 L96 84 L104 100 L112 84" stroke="${f}" stroke-width="3" fill="none"/>` +
    `<rect x="80" y="132" width="40" height="36" rx="4" fill="${STEEL}"/><path d="M80 142 L120 142 M80 152 L120 152 M80 162 L120 162" stroke="#78716c" stroke-width="3"/><path d="M92 168 L108 168 L104 178 L96 178 Z" fill="${INK}"/>`,
  plant: (f) =>
    leaf(70, 70, 16, 44, -35) +
    leaf(130, 66, 16, 44, 35, LEAF2) +
    leaf(100, 56, 16, 50, 0) +
    leaf(56, 104, 12, 34, -70, LEAF2) +
    leaf(144, 104, 12, 34, 70) +
    `<path d="M62 118 L138 118 L128 184 L72 184 Z" fill="${f}"/><rect x="56" y="112" width="88" height="14" rx="3" fill="${f}"/>`,
  seedling: (f) =>
    `<path d="M100 120 L100 80" stroke="${LEAF}" stroke-width="5"/>${leaf(80, 74, 10, 22, -60, LEAF2)}${leaf(120, 74, 10, 22, 60)}` +
    `<path d="M66 120 L134 120 L124 180 L76 180 Z" fill="${f}"/>`,
  'seed-packet': (f) =>
    `<rect x="52" y="24" width="96" height="152" rx="6" fill="#fffbeb" stroke="${f}" stroke-width="4"/><rect x="52" y="24" width="96" height="22" fill="${f}"/>` +
    `<circle cx="100" cy="98" r="30" fill="${f}" opacity=".85"/>${leaf(100, 70, 8, 16, 0, LEAF)}` +
    `<rect x="66" y="142" width="68" height="8" rx="4" fill="${f}" opacity=".5"/><rect x="76" y="156" width="48" height="6" rx="3" fill="${f}" opacity=".35"/>`,
  herb: (f) =>
    [50, 100, 150]
      .map(
        (x, i) =>
          `${leaf(x - 10, 96 - i * 4, 8, 18, -30, i % 2 ? LEAF : LEAF2)}${leaf(x + 10, 92 - i * 4, 8, 18, 30)}${leaf(x, 84 - i * 4, 8, 20, 0, LEAF2)}` +
          `<path d="M${x - 24} 116 L${x + 24} 116 L${x + 18} 170 L${x - 18} 170 Z" fill="${f}"/>`,
      )
      .join(''),
  trowel: (f) =>
    `<g transform="rotate(-35 100 100)"><rect x="90" y="118" width="20" height="64" rx="9" fill="${WOOD}"/><rect x="96" y="92" width="8" height="30" fill="${STEEL}"/>` +
    `<path d="M70 96 Q70 40 100 14 Q130 40 130 96 Z" fill="${f === INK ? STEEL : '#d6d3d1'}" stroke="${f}" stroke-width="4"/></g>`,
  shears: (f) =>
    `<g transform="rotate(-10 100 100)"><path d="M100 96 L64 20 Q82 18 104 84 Z" fill="#d6d3d1" stroke="${INK}" stroke-width="2"/><path d="M100 96 L136 20 Q118 18 96 84 Z" fill="#e7e5e4" stroke="${INK}" stroke-width="2"/>` +
    `<circle cx="100" cy="96" r="7" fill="${INK}"/><path d="M96 100 Q70 140 58 182" stroke="${f}" stroke-width="16" stroke-linecap="round" fill="none"/><path d="M104 100 Q130 140 142 182" stroke="${f}" stroke-width="16" stroke-linecap="round" fill="none"/></g>`,
  'watering-can': (f) =>
    `<rect x="46" y="76" width="90" height="96" rx="12" fill="${f}"/><path d="M132 150 L182 72" stroke="${f}" stroke-width="12" stroke-linecap="round"/>` +
    `<rect x="170" y="58" width="22" height="18" rx="4" transform="rotate(-30 181 67)" fill="${f}"/><path d="M60 78 Q90 28 122 78" stroke="${f}" stroke-width="10" fill="none"/>` +
    `<rect x="46" y="96" width="90" height="8" fill="#000" opacity=".12"/>`,
  hose: (f) =>
    `<circle cx="92" cy="108" r="62" fill="none" stroke="${f}" stroke-width="14"/><circle cx="92" cy="108" r="40" fill="none" stroke="${f}" stroke-width="14"/>` +
    `<circle cx="92" cy="108" r="18" fill="none" stroke="${f}" stroke-width="14"/><path d="M154 108 L172 150" stroke="${f}" stroke-width="14" stroke-linecap="round"/><rect x="160" y="146" width="24" height="36" rx="5" fill="${INK}"/>`,
  pot: (f) =>
    `${leaf(86, 70, 12, 30, -25, LEAF2)}${leaf(114, 66, 12, 30, 25)}${leaf(100, 56, 10, 28, 0)}` +
    `<path d="M48 100 L152 100 L136 182 L64 182 Z" fill="${f}"/><rect x="42" y="92" width="116" height="18" rx="3" fill="${f}"/><rect x="42" y="106" width="116" height="5" fill="#000" opacity=".12"/>`,
  'raised-bed': (f) =>
    `${[40, 70, 100, 130, 160].map((x, i) => leaf(x, 96, 10, 24, i % 2 ? 20 : -20, i % 2 ? LEAF : LEAF2)).join('')}` +
    `<rect x="20" y="112" width="160" height="22" fill="${WOOD}"/><rect x="20" y="136" width="160" height="22" fill="${WOOD}"/><rect x="20" y="160" width="160" height="22" fill="${WOOD}"/>` +
    `<rect x="16" y="108" width="12" height="78" fill="${f}"/><rect x="172" y="108" width="12" height="78" fill="${f}"/>`,
  'soil-bag': (f) =>
    `<path d="M50 40 L150 40 L160 180 L40 180 Z" fill="${f}"/><path d="M50 40 Q100 24 150 40" fill="${f}"/>` +
    `<rect x="62" y="88" width="76" height="56" rx="6" fill="#fafaf9"/>${leaf(100, 110, 8, 16, 0)}<rect x="74" y="128" width="52" height="6" rx="3" fill="${SOIL}"/>`,
  birdhouse: (f) =>
    `<path d="M40 84 L100 30 L160 84 Z" fill="${INK}"/><rect x="56" y="80" width="88" height="96" fill="${f}"/><circle cx="100" cy="116" r="14" fill="${INK}"/>` +
    `<rect x="96" y="140" width="8" height="18" fill="${WOOD}"/><rect x="76" y="174" width="48" height="6" fill="${INK}"/>`,
  chair: (f) =>
    `<rect x="60" y="28" width="80" height="80" rx="10" fill="${f}"/><line x1="70" y1="40" x2="70" y2="100" stroke="#000" stroke-opacity=".15" stroke-width="4"/><line x1="100" y1="40" x2="100" y2="100" stroke="#000" stroke-opacity=".15" stroke-width="4"/><line x1="130" y1="40" x2="130" y2="100" stroke="#000" stroke-opacity=".15" stroke-width="4"/>` +
    `<rect x="44" y="108" width="112" height="18" rx="6" fill="${f}"/><rect x="52" y="124" width="12" height="58" fill="${f}"/><rect x="136" y="124" width="12" height="58" fill="${f}"/><rect x="36" y="96" width="20" height="8" rx="4" fill="${f}"/><rect x="144" y="96" width="20" height="8" rx="4" fill="${f}"/>`,
  drill: (f) =>
    `<rect x="40" y="56" width="104" height="46" rx="18" fill="${f}"/><rect x="144" y="68" width="22" height="22" rx="4" fill="${INK}"/><rect x="166" y="74" width="24" height="10" fill="${STEEL}"/>` +
    `<path d="M74 100 L104 100 L98 156 L72 156 Z" fill="${INK}"/><rect x="56" y="154" width="62" height="28" rx="6" fill="${INK}"/><rect x="62" y="160" width="50" height="6" rx="3" fill="${f}"/><circle cx="64" cy="79" r="9" fill="#000" opacity=".2"/>`,
  saw: (f) =>
    `<circle cx="92" cy="112" r="58" fill="${STEEL}"/><circle cx="92" cy="112" r="58" fill="none" stroke="#78716c" stroke-width="6" stroke-dasharray="6 6"/><circle cx="92" cy="112" r="10" fill="${INK}"/>` +
    `<path d="M40 112 A52 52 0 0 1 144 112 L170 112 L170 92 Q170 56 130 48 L80 44 Q40 52 40 112 Z" fill="${f}"/><rect x="112" y="24" width="54" height="20" rx="10" fill="${INK}"/><rect x="30" y="168" width="140" height="8" rx="3" fill="${INK}"/>`,
  sander: (f) =>
    `<ellipse cx="100" cy="160" rx="70" ry="18" fill="${INK}"/><path d="M46 150 Q46 96 100 90 Q154 96 154 150 Z" fill="${f}"/>` +
    `<path d="M78 92 Q82 46 120 44 Q150 46 152 70" stroke="${INK}" stroke-width="16" fill="none" stroke-linecap="round"/>`,
  grinder: (f) =>
    `<rect x="30" y="80" width="120" height="40" rx="18" fill="${f}"/><rect x="146" y="86" width="22" height="28" fill="${INK}"/><ellipse cx="176" cy="130" rx="8" ry="44" fill="${STEEL}"/>` +
    `<rect x="90" y="48" width="14" height="34" rx="6" fill="${INK}"/><rect x="14" y="90" width="22" height="20" rx="8" fill="${INK}"/>`,
  wrench: (f) =>
    `<g transform="rotate(-40 100 100)"><rect x="90" y="46" width="20" height="120" rx="8" fill="${f === INK ? STEEL : f}"/>` +
    `<path d="M72 20 Q100 0 128 20 L128 46 L112 58 L112 34 L88 34 L88 58 L72 46 Z" fill="${f === INK ? STEEL : f}"/><circle cx="100" cy="168" r="22" fill="none" stroke="${f === INK ? STEEL : f}" stroke-width="12"/></g>`,
  screwdriver: (f) =>
    `<g transform="rotate(40 100 100)"><rect x="82" y="100" width="36" height="82" rx="14" fill="${f}"/><rect x="88" y="112" width="6" height="58" rx="3" fill="#000" opacity=".18"/>` +
    `<rect x="95" y="20" width="10" height="82" fill="${STEEL}"/><path d="M95 20 L100 8 L105 20 Z" fill="${STEEL}"/></g>`,
  hammer: (f) =>
    `<g transform="rotate(-30 100 100)"><rect x="92" y="56" width="16" height="130" rx="6" fill="${WOOD}"/><rect x="90" y="140" width="20" height="46" rx="8" fill="${f}"/>` +
    `<path d="M52 34 L132 34 Q156 30 166 50 L132 60 L52 60 Z" fill="${INK}"/></g>`,
  battery: (f) =>
    `<rect x="44" y="64" width="112" height="96" rx="12" fill="${INK}"/><rect x="44" y="64" width="112" height="34" rx="12" fill="${f}"/>` +
    `<rect x="72" y="40" width="56" height="26" rx="6" fill="${INK}"/><g>${[0, 1, 2, 3].map((i) => `<rect x="${64 + i * 20}" y="128" width="14" height="12" rx="2" fill="${i < 3 ? '#4ade80' : '#57534e'}"/>`).join('')}</g>`,
  charger: (f) =>
    `<rect x="30" y="96" width="140" height="70" rx="12" fill="${INK}"/><rect x="30" y="96" width="140" height="20" rx="10" fill="${f}"/>` +
    `<rect x="62" y="52" width="76" height="50" rx="8" fill="${f}"/><circle cx="148" cy="142" r="6" fill="#4ade80"/><path d="M170 140 Q190 150 186 180" stroke="${INK}" stroke-width="5" fill="none"/>`,
  mower: (f) =>
    `<path d="M44 120 L150 120 L162 156 L32 156 Z" fill="${f}"/><circle cx="54" cy="160" r="16" fill="${INK}"/><circle cx="144" cy="160" r="16" fill="${INK}"/>` +
    `<path d="M140 122 L182 40" stroke="${INK}" stroke-width="7" stroke-linecap="round"/><path d="M172 38 L192 46" stroke="${INK}" stroke-width="9" stroke-linecap="round"/><rect x="78" y="98" width="44" height="24" rx="6" fill="${INK}"/>`,
  trimmer: (f) =>
    `<path d="M40 176 L160 36" stroke="${STEEL}" stroke-width="7" stroke-linecap="round"/><rect x="132" y="34" width="40" height="26" rx="10" transform="rotate(-50 152 47)" fill="${f}"/>` +
    `<path d="M92 118 L112 132" stroke="${INK}" stroke-width="10" stroke-linecap="round"/><ellipse cx="40" cy="178" rx="24" ry="9" fill="${f}"/><path d="M16 182 L4 190 M64 182 L76 190" stroke="#84cc16" stroke-width="3"/>`,
  blower: (f) =>
    `<rect x="26" y="72" width="84" height="64" rx="26" fill="${f}"/><path d="M108 96 L186 120 L186 134 L108 118 Z" fill="${INK}"/>` +
    `<path d="M46 74 Q66 36 94 74" stroke="${INK}" stroke-width="10" fill="none"/><rect x="36" y="134" width="48" height="26" rx="6" fill="${INK}"/>`,
  toolbox: (f) =>
    `<rect x="28" y="70" width="144" height="104" rx="10" fill="${f}"/><rect x="28" y="106" width="144" height="8" fill="#000" opacity=".2"/>` +
    `<path d="M70 70 L70 44 L130 44 L130 70" stroke="${INK}" stroke-width="10" fill="none"/><rect x="88" y="96" width="24" height="26" rx="4" fill="${STEEL}"/>`,
  workbench: (f) =>
    `<rect x="20" y="72" width="160" height="18" rx="3" fill="${WOOD}"/><rect x="34" y="90" width="12" height="92" fill="${f}"/><rect x="154" y="90" width="12" height="92" fill="${f}"/>` +
    `<rect x="34" y="140" width="132" height="8" fill="${f}"/><rect x="120" y="50" width="40" height="22" rx="3" fill="${INK}"/><rect x="56" y="60" width="40" height="12" rx="2" fill="${STEEL}"/>`,
  helmet: (f) =>
    `<path d="M40 130 Q40 48 100 46 Q160 48 160 130 Z" fill="${f}"/><rect x="92" y="46" width="16" height="84" fill="#000" opacity=".12"/>` +
    `<path d="M24 130 L176 130 Q176 146 160 146 L40 146 Q24 146 24 130 Z" fill="${f}"/><path d="M60 146 Q100 176 140 146" stroke="${INK}" stroke-width="4" fill="none"/>`,
  jacket: (f) =>
    `<path d="M70 30 L100 44 L130 30 L170 52 L186 140 L160 146 L152 96 L152 182 L48 182 L48 96 L40 146 L14 140 L30 52 Z" fill="${f}"/>` +
    `<line x1="100" y1="44" x2="100" y2="182" stroke="#000" stroke-opacity=".25" stroke-width="4"/><rect x="48" y="120" width="104" height="10" fill="#e5e7eb" opacity=".9"/>`,
  // Variations and kinds the category drawings above do not cover (see PRODUCT_GLYPHS in build.ts).
  'pendant-globe': (f) =>
    `<line x1="100" y1="0" x2="100" y2="64" stroke="${INK}" stroke-width="3"/><rect x="90" y="60" width="20" height="14" rx="3" fill="${f}"/>` +
    `<circle cx="100" cy="118" r="46" fill="#fafaf9" stroke="#e7e5e4" stroke-width="3"/><circle cx="100" cy="118" r="20" fill="${GLOW}" opacity=".7"/>` +
    `<path d="M70 96 Q80 84 96 80" stroke="#fff" stroke-width="6" fill="none" stroke-linecap="round"/>`,
  'pendant-cone': (f) =>
    `<line x1="100" y1="0" x2="100" y2="66" stroke="${INK}" stroke-width="3"/><path d="M88 64 L112 64 L156 150 L44 150 Z" fill="${f}"/>` +
    `<ellipse cx="100" cy="150" rx="56" ry="8" fill="${GLOW}"/><ellipse cx="100" cy="160" rx="12" ry="6" fill="${GLOW}" opacity=".8"/>`,
  'pendant-linear': (f) =>
    `<line x1="40" y1="0" x2="40" y2="60" stroke="${INK}" stroke-width="2"/><line x1="160" y1="0" x2="160" y2="60" stroke="${INK}" stroke-width="2"/>` +
    `<rect x="20" y="58" width="160" height="10" rx="4" fill="${f}"/>` +
    [50, 100, 150]
      .map(
        (x) =>
          `<line x1="${x}" y1="68" x2="${x}" y2="92" stroke="${INK}" stroke-width="3"/><path d="M${x - 22} 130 Q${x - 22} 92 ${x} 92 Q${x + 22} 92 ${x + 22} 130 Z" fill="${f}"/><circle cx="${x}" cy="134" r="7" fill="${GLOW}"/>`,
      )
      .join(''),
  'pendant-woven': (f) =>
    `<line x1="100" y1="0" x2="100" y2="60" stroke="${INK}" stroke-width="3"/><path d="M40 140 Q40 60 100 60 Q160 60 160 140 Z" fill="${WOOD}"/>` +
    [0, 1, 2, 3, 4, 5, 6]
      .map(
        (i) =>
          `<path d="M${52 + i * 16} 140 Q${60 + i * 12} 90 100 62" stroke="${f}" stroke-width="3" fill="none" opacity=".7"/>`,
      )
      .join('') +
    `<path d="M44 100 L156 100 M40 120 L160 120" stroke="${f}" stroke-width="3" opacity=".7"/><ellipse cx="100" cy="142" rx="40" ry="6" fill="${GLOW}"/>`,
  'paper-lantern': (f) =>
    `<line x1="100" y1="0" x2="100" y2="50" stroke="${INK}" stroke-width="3"/><rect x="92" y="48" width="16" height="8" fill="${f}"/>` +
    `<ellipse cx="100" cy="112" rx="60" ry="58" fill="#fffbeb"/>` +
    [70, 88, 106, 124, 142, 158]
      .map(
        (y) =>
          `<path d="M${100 - Math.sqrt(Math.max(0, 3600 - (((y - 112) * 60) / 58) ** 2))} ${y - 14} L${100 + Math.sqrt(Math.max(0, 3600 - (((y - 112) * 60) / 58) ** 2))} ${y - 14}" stroke="${f}" stroke-width="2" opacity=".5"/>`,
      )
      .join('') +
    `<ellipse cx="100" cy="112" rx="28" ry="30" fill="${GLOW}" opacity=".45"/><rect x="92" y="168" width="16" height="8" fill="${f}"/>`,
  dimmer: (f) =>
    `<rect x="52" y="24" width="96" height="152" rx="12" fill="#fafaf9" stroke="#d6d3d1" stroke-width="3"/>` +
    `<circle cx="100" cy="84" r="30" fill="${f}"/><circle cx="100" cy="84" r="20" fill="#000" opacity=".12"/><rect x="97" y="58" width="6" height="14" rx="3" fill="#fff"/>` +
    `<rect x="76" y="132" width="48" height="22" rx="6" fill="#e7e5e4"/>${[0, 1, 2, 3].map((i) => `<circle cx="${84 + i * 11}" cy="143" r="3" fill="${i < 3 ? GLOW : '#a8a29e'}"/>`).join('')}`,
  'led-strip': (f) =>
    `<circle cx="100" cy="100" r="62" fill="none" stroke="${f}" stroke-width="16"/><circle cx="100" cy="100" r="36" fill="none" stroke="${f}" stroke-width="16"/>` +
    [...Array(12).keys()]
      .map(
        (i) =>
          `<circle cx="${100 + 62 * Math.cos(i * 0.5236)}" cy="${100 + 62 * Math.sin(i * 0.5236)}" r="4" fill="${GLOW}"/>`,
      )
      .join('') +
    `<path d="M162 100 L190 150" stroke="${f}" stroke-width="16"/><rect x="180" y="146" width="18" height="26" rx="3" fill="${INK}"/>`,
  'spot-bulb': (f) =>
    `<circle cx="100" cy="64" r="48" fill="${GLOW}" opacity=".3"/><path d="M56 40 L144 40 L124 118 L76 118 Z" fill="#f5f5f4" stroke="${f}" stroke-width="4"/>` +
    `<ellipse cx="100" cy="42" rx="44" ry="8" fill="#fef9c3" stroke="${f}" stroke-width="3"/><rect x="84" y="118" width="32" height="26" rx="3" fill="${STEEL}"/>` +
    `<rect x="88" y="144" width="6" height="22" fill="${INK}"/><rect x="106" y="144" width="6" height="22" fill="${INK}"/>`,
  'tube-bulb': (f) =>
    `<rect x="78" y="16" width="44" height="128" rx="22" fill="#fef9c3" stroke="${f}" stroke-width="4"/><path d="M92 40 L92 120 M108 40 L108 120" stroke="#d97706" stroke-width="2"/>` +
    `<path d="M92 40 Q100 30 108 40" stroke="#d97706" stroke-width="2" fill="none"/><rect x="82" y="144" width="36" height="30" rx="4" fill="${STEEL}"/><path d="M82 154 L118 154 M82 164 L118 164" stroke="#78716c" stroke-width="3"/>`,
  'pruning-saw': (f) =>
    `<g transform="rotate(-30 100 100)"><path d="M92 20 Q126 70 110 130 L92 130 Q104 74 76 24 Z" fill="#d6d3d1" stroke="${INK}" stroke-width="2"/>` +
    [...Array(9).keys()]
      .map((i) => `<path d="M${108 - i * 1.5} ${122 - i * 11} l6 -3 l-4 8 z" fill="${STEEL}"/>`)
      .join('') +
    `<rect x="86" y="128" width="28" height="60" rx="10" fill="${f}"/><circle cx="100" cy="140" r="4" fill="${INK}"/></g>`,
  lopper: (f) =>
    `<path d="M100 80 L68 14 Q86 12 106 70 Z" fill="#d6d3d1" stroke="${INK}" stroke-width="2"/><path d="M100 80 L132 14 Q114 12 94 70 Z" fill="#e7e5e4" stroke="${INK}" stroke-width="2"/>` +
    `<circle cx="100" cy="80" r="6" fill="${INK}"/><path d="M96 84 L44 188" stroke="${STEEL}" stroke-width="8" stroke-linecap="round"/><path d="M104 84 L156 188" stroke="${STEEL}" stroke-width="8" stroke-linecap="round"/>` +
    `<path d="M62 152 L40 196" stroke="${f}" stroke-width="14" stroke-linecap="round"/><path d="M138 152 L160 196" stroke="${f}" stroke-width="14" stroke-linecap="round"/>`,
  glasses: (f) =>
    `<path d="M20 80 Q100 64 180 80 L176 124 Q140 140 108 118 L100 110 L92 118 Q60 140 24 124 Z" fill="#e0f2fe" stroke="${f}" stroke-width="6" opacity=".95"/>` +
    `<path d="M20 84 L6 96 M180 84 L194 96" stroke="${f}" stroke-width="6" stroke-linecap="round"/><path d="M40 92 Q56 86 70 94" stroke="#fff" stroke-width="5" fill="none"/>`,
  gloves: (f) =>
    `<path d="M64 180 L64 100 L50 64 Q46 52 58 50 Q66 50 70 62 L76 80 L76 34 Q76 22 88 22 Q98 22 98 34 L98 74 L100 26 Q100 14 112 14 Q124 14 122 28 L120 76 L126 34 Q128 22 140 24 Q150 26 148 38 L140 92 L140 180 Z" fill="${f}"/>` +
    `<rect x="60" y="156" width="84" height="26" rx="4" fill="${INK}"/><path d="M80 120 L124 120" stroke="#000" stroke-opacity=".15" stroke-width="4"/>`,
  boots: (f) =>
    `<path d="M52 30 L116 30 L118 118 Q170 122 178 150 L178 172 L40 172 L44 118 Z" fill="${f}"/><rect x="36" y="168" width="146" height="14" rx="4" fill="${INK}"/>` +
    `<path d="M60 54 L110 54 M60 76 L110 76 M60 98 L110 98" stroke="${GLOW}" stroke-width="5"/><path d="M140 140 Q164 140 174 160" stroke="#000" stroke-opacity=".2" stroke-width="6" fill="none"/>`,
  'ear-defenders': (f) =>
    `<path d="M46 112 Q46 26 100 26 Q154 26 154 112" stroke="${INK}" stroke-width="12" fill="none"/>` +
    `<rect x="24" y="96" width="44" height="70" rx="20" fill="${f}"/><rect x="132" y="96" width="44" height="70" rx="20" fill="${f}"/>` +
    `<rect x="58" y="104" width="12" height="54" rx="5" fill="${INK}"/><rect x="130" y="104" width="12" height="54" rx="5" fill="${INK}"/>`,
};
