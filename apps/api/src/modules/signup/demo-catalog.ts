/**
 * The small demo catalog a merchant may start with: two categories and six products, enough to see
 * the storefront's home, a category and a product page filled, and to try an order. Prices in cents.
 * Marked "Demo" in their names so nobody sells them by mistake.
 */
export const DEMO_CATALOG = {
  categories: [
    { id: 'DEMO-MUGS', name: 'Mugs', description: 'Stoneware mugs for every morning' },
    { id: 'DEMO-TOTES', name: 'Tote bags', description: 'Canvas bags that carry a week of shopping' },
  ],
  products: [
    {
      id: 'DEMO-MUG-1',
      slug: 'demo-classic-mug',
      name: 'Demo Classic Mug',
      category: 'DEMO-MUGS',
      price: 1800,
      stock: 25,
      grams: 350,
      description: 'A 12 oz stoneware mug with a glazed finish.',
    },
    {
      id: 'DEMO-MUG-2',
      slug: 'demo-travel-mug',
      name: 'Demo Travel Mug',
      category: 'DEMO-MUGS',
      price: 2600,
      stock: 15,
      grams: 300,
      description: 'Keeps coffee hot for four hours, with a lid that does not leak.',
    },
    {
      id: 'DEMO-MUG-3',
      slug: 'demo-espresso-cups',
      name: 'Demo Espresso Cups (set of 2)',
      category: 'DEMO-MUGS',
      price: 2200,
      stock: 10,
      grams: 400,
      description: 'Two small cups with saucers.',
    },
    {
      id: 'DEMO-TOTE-1',
      slug: 'demo-canvas-tote',
      name: 'Demo Canvas Tote',
      category: 'DEMO-TOTES',
      price: 2400,
      stock: 30,
      grams: 250,
      description: 'Heavy cotton canvas with long handles.',
    },
    {
      id: 'DEMO-TOTE-2',
      slug: 'demo-market-bag',
      name: 'Demo Market Bag',
      category: 'DEMO-TOTES',
      price: 3200,
      stock: 12,
      grams: 320,
      description: 'A wide bag with an inner pocket for keys.',
    },
    {
      id: 'DEMO-TOTE-3',
      slug: 'demo-zip-tote',
      name: 'Demo Zip Tote',
      category: 'DEMO-TOTES',
      price: 3800,
      stock: 8,
      grams: 380,
      description: 'Closes with a zip; fits a laptop.',
    },
  ],
} as const;
