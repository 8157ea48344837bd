import dns2 from 'dns2';

const { Packet } = dns2;

/** Records a test sets: by lower-case name, its TXT values, CNAME target, A and AAAA addresses. */
export interface Zone {
  txt: Map<string, string[]>;
  cname: Map<string, string>;
  a: Map<string, string[]>;
  aaaa: Map<string, string[]>;
  /** Names whose questions get SERVFAIL: a DNS provider that is down. */
  failing: Set<string>;
}

/**
 * A DNS server on 127.0.0.1 (UDP, a free port) answering from a zone the test changes as it goes,
 * as an owner's DNS provider would: what the domain checks ask through DNS_RESOLVER (decision 121).
 * Names it does not know are NXDOMAIN.
 */
export async function startDnsStandIn(): Promise<{ address: string; zone: Zone; close(): Promise<void> }> {
  const zone: Zone = { txt: new Map(), cname: new Map(), a: new Map(), aaaa: new Map(), failing: new Set() };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      // The library's types ask for a full Resource; its own examples push plain records, as here.
      const answer = (record: object) => response.answers.push(record as InstanceType<typeof Packet.Resource>);
      const question = request.questions[0];
      if (!question) return send(response);
      const name = question.name.toLowerCase();
      const base = { name: question.name, class: Packet.CLASS.IN, ttl: 1 };
      if ([...zone.failing].some((f) => name === f || name.endsWith(`.${f}`))) {
        response.header.rcode = 2; // SERVFAIL
        return send(response);
      }
      const cname = zone.cname.get(name);
      const known = zone.txt.has(name) || cname !== undefined || zone.a.has(name) || zone.aaaa.has(name);
      if (!known) {
        response.header.rcode = 3; // NXDOMAIN
        return send(response);
      }
      if (question.type === Packet.TYPE.TXT) {
        for (const data of zone.txt.get(name) ?? []) answer({ ...base, type: Packet.TYPE.TXT, data });
      } else if (cname !== undefined && (question.type === Packet.TYPE.CNAME || question.type === Packet.TYPE.A)) {
        answer({ ...base, type: Packet.TYPE.CNAME, domain: cname });
      } else if (question.type === Packet.TYPE.A) {
        for (const address of zone.a.get(name) ?? []) answer({ ...base, type: Packet.TYPE.A, address });
      } else if (question.type === Packet.TYPE.AAAA) {
        for (const address of zone.aaaa.get(name) ?? []) answer({ ...base, type: Packet.TYPE.AAAA, address });
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = server.addresses().udp?.port;
  if (!port) throw new Error('the DNS stand-in did not start');
  return {
    address: `127.0.0.1:${port}`,
    zone,
    close: () => server.close(),
  };
}
