export { createDnsChecker, type DnsChecker, txtName, txtValue } from './dns-check';
export { domainsModule } from './domains.module';
export { TLS_ASK_PATH } from './domains.routes';
export { createDomainsService, type DomainsService, recordsFor, VERIFY_JOB } from './domains.service';
