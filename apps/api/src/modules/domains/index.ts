export { createDnsChecker, type DnsChecker, txtName, txtValue } from './dns-check';
export { recordsFor } from './dns-records';
export { VERIFY_JOB } from './domain-checks';
export { domainsModule } from './domains.module';
export { TLS_ASK_PATH } from './domains.routes';
export { createDomainsService, type DomainsService } from './domains.service';
