// Accelerator requests (the caller's project's; an admin's, every project's)
// and the device profiles they are made from.
import { graphql } from './api.js';
import { badge, fill, h, json, table, time } from './dom.js';
import { startPage } from './layout.js';

const QUERY = `{
  acceleratorRequests(first: 200) { edges { node { uuid state projectId deviceProfileName deviceProfileGroupId resourceClass instanceUuid hostname deviceUuid createdAt } } pageInfo { hasNextPage } }
  deviceProfiles(first: 200) { edges { node { uuid name description groups createdAt } } }
}`;

const deviceLink = (uuid) => (uuid ? h('a', { href: `/console/device.html?uuid=${encodeURIComponent(uuid)}` }, uuid.slice(0, 8)) : '—');

async function render(live) {
  const data = await graphql(QUERY);
  const arqs = data.acceleratorRequests.edges.map((edge) => edge.node);
  const profiles = data.deviceProfiles.edges.map((edge) => edge.node);
  fill(
    live,
    h('h2', {}, `Accelerator requests (${arqs.length}${data.acceleratorRequests.pageInfo.hasNextPage ? '+' : ''})`),
    arqs.length === 0
      ? h('p', { class: 'empty' }, 'No accelerator request.')
      : table(
          ['Request', 'State', 'Project', 'Profile (group)', 'Class', 'Instance', 'Host', 'Device', 'Created'],
          arqs.map((arq) => [h('a', { href: `/console/request.html?uuid=${encodeURIComponent(arq.uuid)}` }, h('code', {}, arq.uuid)), badge(arq.state), arq.projectId, `${arq.deviceProfileName} (${arq.deviceProfileGroupId})`, arq.resourceClass, arq.instanceUuid ?? '—', arq.hostname ?? '—', deviceLink(arq.deviceUuid), time(arq.createdAt)]),
          { 'data-testid': 'arqs' },
        ),
    h('h2', {}, 'Device profiles'),
    profiles.length === 0
      ? h('p', { class: 'empty' }, 'No device profile.')
      : table(['Name', 'Description', 'Groups', 'Created'], profiles.map((profile) => [profile.name, profile.description ?? '—', json(profile.groups), time(profile.createdAt)]), { 'data-testid': 'profiles' }),
  );
}

startPage({ title: 'Requests & profiles', render });
