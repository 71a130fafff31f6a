"""A Nova-shaped client of the accelerator service, for the ledger's Keystone tests: what nova/accelerator/cyborg.py
does, through keystoneauth as Nova does it. The user's token goes in X-Auth-Token and Nova's own in X-Service-Token
(keystoneauth's ServiceTokenAuthWrapper, which Nova's service_auth uses), and the endpoint comes from the service
catalog (service type `accelerator`). Nova sends no microversion header, so the ledger answers at 2.0.

Usage: nova-keystone-client.py < request.json, where request.json holds auth_url, the user's token and project id,
Nova's service user and password, the device profile, the host, the resource provider and the instance. Prints one
JSON object per step: {"step": …, "status": …, "body": …}."""
import json
import sys

from keystoneauth1 import adapter, service_token, session
from keystoneauth1.identity import v3

request = json.load(sys.stdin)
user_auth = v3.Token(auth_url=request['auth_url'], token=request['user_token'], project_id=request['project_id'])
nova_auth = v3.Password(
    auth_url=request['auth_url'],
    username=request['nova_user'],
    password=request['nova_password'],
    project_name='service',
    user_domain_id='default',
    project_domain_id='default',
)
accelerator = adapter.Adapter(
    session=session.Session(auth=service_token.ServiceTokenAuthWrapper(user_auth=user_auth, service_auth=nova_auth)),
    service_type='accelerator',
    interface='public',
    region_name='RegionOne',
)


def step(name, response):
    try:
        body = response.json()
    except ValueError:
        body = response.text or None
    print(json.dumps({'step': name, 'status': response.status_code, 'body': body}), flush=True)
    return body


instance = request['instance_uuid']
profiles = step('get device profile', accelerator.get('/device_profiles?name=%s' % request['device_profile'], raise_exc=False))
created = step('create arqs', accelerator.post('/accelerator_requests', json={'device_profile_name': request['device_profile']}, raise_exc=False))
arqs = (created or {}).get('arqs', []) if isinstance(created, dict) else []
patch = {
    arq['uuid']: [
        {'op': 'add', 'path': '/hostname', 'value': request['hostname']},
        {'op': 'add', 'path': '/device_rp_uuid', 'value': request['device_rp_uuid']},
        {'op': 'add', 'path': '/instance_uuid', 'value': instance},
    ]
    for arq in arqs
}
step('bind arqs', accelerator.patch('/accelerator_requests', json=patch, raise_exc=False))
step('get resolved arqs', accelerator.get('/accelerator_requests?instance=%s&bind_state=resolved' % instance, raise_exc=False))
step('delete arqs of instance', accelerator.delete('/accelerator_requests?instance=%s' % instance, raise_exc=False))
step('list arqs', accelerator.get('/accelerator_requests', raise_exc=False))
