export * from './without-nest';
export * from './nest/auth.decorators';
export * from './nest/auth.options';
export * from './nest/auth.guard';
export * from './nest/authenticate';
export * from './nest/auth.module';
