/** One of Cyborg's policy rules with its default (cyborg/policies/*.py). */
export interface PolicyRuleDefault {
  readonly name: string;
  readonly rule: string;
  readonly description: string;
  /** The v2 operations it guards, as Cyborg documents them; none for the base rules other rules name. */
  readonly operations: readonly string[];
  /** Cyborg deprecated it (its legacy base rules, kept so an old policy file still reads). */
  readonly deprecated?: true;
}

const base = (name: string, rule: string, description: string): PolicyRuleDefault => ({ name, rule, description, operations: [] });
const legacy = (name: string, rule: string, description: string): PolicyRuleDefault => ({ ...base(name, rule, description), deprecated: true });
const api = (name: string, rule: string, description: string, ...operations: string[]): PolicyRuleDefault => ({ name, rule, description, operations });

const READER = 'rule:project_reader_or_admin';
const MANAGER = 'rule:project_manager_or_admin';
const MEMBER_OR_SERVICE = 'rule:project_member_or_service';
const ADMIN = 'rule:admin_api';

/** The rules every v2 route names; `PolicyRule` takes only these. */
export const CYBORG_API_RULES = [
  api('cyborg:device_profile:get_all', READER, 'Retrieve all device_profiles', 'GET /v2/device_profiles'),
  api('cyborg:device_profile:get_one', READER, 'Retrieve a specific device_profile', 'GET /v2/device_profiles/{device_profiles_uuid}'),
  api('cyborg:device_profile:create', ADMIN, 'Create a device_profile', 'POST /v2/device_profiles'),
  api('cyborg:device_profile:delete', ADMIN, 'Delete device_profile(s)', 'DELETE /v2/device_profiles/{device_profiles_uuid}', 'DELETE /v2/device_profiles?value={device_profile_name1}'),
  api('cyborg:arq:get_all', READER, 'Retrieve all accelerator requests', 'GET /v2/accelerator_requests'),
  api('cyborg:arq:get_one', READER, 'Retrieve a specific accelerator request', 'GET /v2/accelerator_requests/{arqs_uuid}'),
  api('cyborg:arq:create', MEMBER_OR_SERVICE, 'Create accelerator request records', 'POST /v2/accelerator_requests'),
  api('cyborg:arq:delete', MEMBER_OR_SERVICE, 'Delete accelerator request records', 'DELETE /v2/accelerator_requests'),
  api('cyborg:arq:update', MEMBER_OR_SERVICE, 'Update accelerator request records', 'PATCH /v2/accelerator_requests'),
  api('cyborg:deployable:get_all', MANAGER, 'Retrieve all deployable records', 'GET /v2/deployables'),
  api('cyborg:deployable:get_one', MANAGER, 'Show deployable detail', 'GET /v2/deployables/{uuid}'),
  api('cyborg:deployable:program', ADMIN, 'Program a deployable (FPGA bitstream reprogramming)', 'PATCH /v2/deployables/{uuid}/program'),
  api('cyborg:device:get_all', MANAGER, 'Retrieve all device records', 'GET /v2/devices'),
  api('cyborg:device:get_one', MANAGER, 'Show device detail', 'GET /v2/devices/{uuid}'),
  api('cyborg:device:disable', ADMIN, 'Disable a device', 'POST /v2/devices/{uuid}/disable'),
  api('cyborg:device:enable', ADMIN, 'Enable a device', 'POST /v2/devices/{uuid}/enable'),
  api('cyborg:attribute:get_all', MANAGER, 'Retrieve all attribute records', 'GET /v2/attributes'),
  api('cyborg:attribute:get_one', MANAGER, 'Show attribute detail', 'GET /v2/attributes/{uuid}'),
  api('cyborg:attribute:create', ADMIN, 'Create an attribute record', 'POST /v2/attributes'),
  api('cyborg:attribute:delete', ADMIN, 'Delete an attribute record', 'DELETE /v2/attributes/{uuid}'),
] as const satisfies readonly PolicyRuleDefault[];

export type CyborgApiRule = (typeof CYBORG_API_RULES)[number]['name'];

/**
 * Cyborg's policy in code, in its order: the base rules (cyborg/policies/base.py,
 * the legacy ones last), then every API rule. The defaults are Cyborg's new
 * ones, enforced as with `enforce_new_defaults = True`: a deprecated rule is
 * not OR-ed in (docs/policy.md, "Where the ledger differs").
 */
export const CYBORG_DEFAULT_RULES: readonly PolicyRuleDefault[] = [
  base('admin_api', 'role:admin', 'Legacy rule for cloud admin access'),
  base('project_admin_api', 'role:admin and project_id:%(project_id)s', 'Default rule for Project level admin APIs.'),
  base('project_member_api', 'role:member and project_id:%(project_id)s', 'Default rule for Project level non admin APIs.'),
  base('project_reader_api', 'role:reader and project_id:%(project_id)s', 'Default rule for Project level read only APIs.'),
  base('project_member_or_admin', 'rule:project_member_api or rule:admin_api', 'Default rule for Project Member or admin APIs.'),
  base('project_reader_or_admin', 'rule:project_reader_api or rule:admin_api', 'Default rule for Project reader or admin APIs.'),
  base('service_api', 'role:service', 'Default rule for service-to-service APIs.'),
  base('project_manager_api', 'role:manager and project_id:%(project_id)s', 'Default rule for project manager APIs.'),
  base('project_manager_or_admin', 'rule:project_manager_api or rule:admin_api', 'Default rule for project manager or admin APIs.'),
  base('project_member_or_service', 'rule:project_member_api or rule:service_api', 'Default rule for project member or service APIs.'),
  legacy('public_api', 'is_public_api:True', 'legacy rule of Internal flag for public API routes'),
  legacy('allow', '@', 'legacy rule: any access will be passed'),
  legacy('deny', '!', 'legacy rule: all access will be forbidden'),
  legacy('default', 'rule:admin_or_owner', 'Legacy rule for default rule'),
  legacy('is_admin', 'rule:admin_api', 'Full read/write API access'),
  legacy('admin_or_owner', 'is_admin:True or project_id:%(project_id)s', 'Admin or owner API access'),
  legacy('admin_or_user', 'is_admin:True or user_id:%(user_id)s', 'Admin or user API access'),
  ...CYBORG_API_RULES,
];
