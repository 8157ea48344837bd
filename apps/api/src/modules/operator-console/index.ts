export { operatorConsoleModule } from './operator-console.module';
