// The auth context's Nest entry (@ledger/auth/nest): its module and what the ledger wires with Nest. The
// Nest-free face is ./index (@ledger/auth).
export * from './nest/auth.decorators';
export * from './nest/auth.module';
export { type AuthenticatedRequest, authorizeRequest, type RouteAccess, routeAccessOf } from './nest/auth.guard';
