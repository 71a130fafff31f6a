import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ansiblePlaybookPath, ansibleUnavailable, describeWithService } from '../../../../test/support/services';
import { AnsibleRunner } from './ansible-runner';

const INSTALL = `
- hosts: localhost
  gather_facts: false
  tasks:
    - name: make the driver directory
      ansible.builtin.file:
        path: "{{ sandbox_root }}/opt/driver"
        state: directory
    - name: write the version marker
      ansible.builtin.copy:
        dest: "{{ sandbox_root }}/opt/driver/VERSION"
        content: "{{ driver_version | default('latest') }}\\n"
    - name: only on a real host
      ansible.builtin.command: /bin/false
      when: sandbox_root == '/'
`;

const FAILING = `
- hosts: localhost
  gather_facts: false
  tasks:
    - name: probe the card
      ansible.builtin.command: /bin/sh -c "echo no such card >&2; exit 3"
`;

const SLOW = `
- hosts: localhost
  gather_facts: false
  tasks:
    - ansible.builtin.command: sleep 30
`;

describeWithService('ansible-playbook', ansibleUnavailable())('AnsibleRunner with the real ansible-playbook', () => {
  let dir: string;
  let runner: AnsibleRunner;
  const playbook = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-ansible-'));
    runner = new AnsibleRunner({ executable: ansiblePlaybookPath(), stateDir: join(dir, 'state') });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a playbook locally against the sandbox with the job variables, and reads the recap', async () => {
    const sandbox = join(dir, 'sandbox');
    const outcome = await runner.run({ playbook: playbook('install.yml', INSTALL), extraVars: { sandbox_root: sandbox, driver_version: '550.54' }, timeoutMs: 60_000 });
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, recap: { ok: 2, changed: 2, failed: 0, skipped: 1, unreachable: 0 } });
    expect(readFileSync(join(sandbox, 'opt', 'driver', 'VERSION'), 'utf8')).toBe('550.54\n');
    expect(outcome.outputTail).not.toMatch(/\u001b\[/);
    const again = await runner.run({ playbook: join(dir, 'install.yml'), extraVars: { sandbox_root: sandbox, driver_version: '550.54' }, timeoutMs: 60_000 });
    expect(again.recap).toMatchObject({ ok: 2, changed: 0 });
  }, 90_000);

  it("keeps Ansible's temp files inside the state directory and ignores the user's ANSIBLE_* settings", async () => {
    process.env.ANSIBLE_STDOUT_CALLBACK = 'json';
    try {
      const isolated = new AnsibleRunner({ executable: ansiblePlaybookPath(), stateDir: join(dir, 'isolated') });
      const outcome = await isolated.run({ playbook: playbook('install2.yml', INSTALL), extraVars: { sandbox_root: join(dir, 'sandbox2') }, timeoutMs: 60_000 });
      expect(outcome.recap).toMatchObject({ failed: 0 });
      expect(existsSync(join(dir, 'isolated', 'ansible', 'tmp'))).toBe(true);
      expect(readdirSync(join(dir, 'isolated', 'ansible'))).toEqual(expect.arrayContaining(['ansible.cfg', 'tmp']));
    } finally {
      delete process.env.ANSIBLE_STDOUT_CALLBACK;
    }
  }, 90_000);

  it('reports a failing playbook with its exit code, the recap and the tail of the output', async () => {
    const outcome = await runner.run({ playbook: playbook('failing.yml', FAILING), extraVars: { sandbox_root: dir }, timeoutMs: 60_000 });
    expect(outcome.exitCode).toBe(2);
    expect(outcome.recap).toMatchObject({ ok: 0, failed: 1 });
    expect(outcome.outputTail).toContain('no such card');
  }, 90_000);

  it('stops a playbook that outlives its timeout', async () => {
    const outcome = await runner.run({ playbook: playbook('slow.yml', SLOW), extraVars: { sandbox_root: dir }, timeoutMs: 3_000 });
    expect(outcome).toMatchObject({ timedOut: true, recap: null });
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.durationMs).toBeLessThan(20_000);
  }, 90_000);

  it('says so when ansible-playbook is not there', async () => {
    const missing = new AnsibleRunner({ executable: join(dir, 'no-ansible-playbook'), stateDir: join(dir, 'state') });
    const outcome = await missing.run({ playbook: join(dir, 'install.yml'), extraVars: {}, timeoutMs: 5_000 });
    expect(outcome).toMatchObject({ exitCode: null, spawnError: expect.stringMatching(/ENOENT/), recap: null });
  });
});
