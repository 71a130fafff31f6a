import { impliedRoles, type Principal } from '../domain/principal';

/** What a check reads: the caller's credentials, and the target of the action. */
export type PolicyValues = Readonly<Record<string, unknown>>;

/**
 * The caller as oslo.context gives it to policy checks: `user_id`,
 * `project_id` (absent without a project, so `project_id:%(project_id)s`
 * fails), `roles` (with Keystone's implied ones, as Keystone puts them in
 * a token), `is_admin` (Cyborg sets it when the roles include admin),
 * `service_user_id` when an X-Service-Token vouched for the request, and a
 * Keystone token's `user_domain_id` and `project_domain_id`.
 */
export function policyCredentials(principal: Principal): PolicyValues {
  const roles = impliedRoles(principal);
  return {
    user_id: principal.user,
    ...(principal.project === null ? {} : { project_id: principal.project }),
    roles,
    is_admin: roles.includes('admin'),
    ...(principal.serviceUser === undefined ? {} : { service_user_id: principal.serviceUser }),
    ...(principal.userDomain === undefined ? {} : { user_domain_id: principal.userDomain }),
    ...(principal.projectDomain === undefined ? {} : { project_domain_id: principal.projectDomain }),
  };
}

/** Cyborg's target for every v2 rule: the caller's own project and user (docs/policy.md says why). */
export function ownTarget(principal: Principal): PolicyValues {
  return { user_id: principal.user, ...(principal.project === null ? {} : { project_id: principal.project }) };
}
