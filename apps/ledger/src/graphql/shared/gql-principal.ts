import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { Principal } from '@ledger/auth';

/** The caller of a GraphQL request, as the route's authentication and the AuthGuard resolved it. */
export const GqlPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => GqlExecutionContext.create(context).getContext<{ req: { principal: Principal } }>().req.principal,
);
