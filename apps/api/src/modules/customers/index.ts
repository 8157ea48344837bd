export { customersModule } from './customers.module';
export { customersPages } from './customers.pages';
export { customersRoutes } from './customers.routes';
export { type CustomersService, createCustomersService } from './customers.service';
