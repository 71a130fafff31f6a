import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readlink, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { ansiblePlaybookPath, ansibleUnavailable, describeWithService } from '../../../../test/support/services';
import { DRIVER_NAMES } from '../config/driver-names';

const PLAYBOOKS = resolve(__dirname, '..', '..', 'playbooks');
/** One ansible-playbook run takes 2–10 s (Python start-up, more on a loaded machine); each test makes several. */
const PLAYBOOK_TEST_TIMEOUT_MS = 180_000;

interface Run {
  readonly code: number | null;
  readonly output: string;
  readonly recap: { ok: number; changed: number; failed: number; skipped: number } | null;
}

/** `ansible-playbook -c local -i localhost, <playbook> -e <json>`, as the agent runs driver jobs, isolated from any Ansible setup of the machine. */
function ansiblePlaybook(home: string, playbook: string, extraVars: Record<string, unknown>, ...flags: string[]): Promise<Run> {
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    ANSIBLE_HOME: join(home, '.ansible'),
    ANSIBLE_LOCAL_TEMP: join(home, 'tmp'),
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_RETRY_FILES_ENABLED: '0',
    ANSIBLE_PYTHON_INTERPRETER: 'auto_silent',
  };
  const args = ['-c', 'local', '-i', 'localhost,', playbook, '-e', JSON.stringify(extraVars), ...flags];
  return new Promise((done) =>
    execFile(ansiblePlaybookPath(), args, { env, timeout: 120_000 }, (error, stdout, stderr) => {
      const match = /localhost\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=\d+\s+failed=(\d+)\s+skipped=(\d+)/.exec(stdout);
      const recap = match ? { ok: Number(match[1]), changed: Number(match[2]), failed: Number(match[3]), skipped: Number(match[4]) } : null;
      done({ code: error ? ((error as { code?: number }).code ?? null) : 0, output: `${stdout}\n${stderr}`, recap });
    }),
  );
}

/** Every file and link under `dir`, relative and sorted (directories alone are a skeleton, not an install). */
async function installedFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (path: string): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(path, entry.name));
      else found.push(relative(dir, join(path, entry.name)));
    }
  };
  await walk(dir);
  return found.sort();
}

describeWithService('ansible-playbook (Debian ansible-core)', ansibleUnavailable())('driver playbooks, run for real in a sandbox', () => {
  let home: string;
  let sandbox: string;
  const playbook = (driver: string, action: 'install' | 'uninstall') => join(PLAYBOOKS, driver, `${action}.yml`);
  const expectRecap = (run: Run, recap: Partial<NonNullable<Run['recap']>>) => {
    if (run.recap === null) throw new Error(`no PLAY RECAP in:\n${run.output}`);
    expect({ recap: run.recap, code: run.code }).toEqual({ recap: expect.objectContaining(recap), code: recap.failed ? 2 : 0 });
  };

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'playbooks-home-'));
    sandbox = await mkdtemp(join(tmpdir(), 'playbooks-root-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(sandbox, { recursive: true, force: true });
  });

  it('every driver\'s install and uninstall playbook passes ansible-playbook --syntax-check', async () => {
    for (const driver of DRIVER_NAMES) {
      for (const action of ['install', 'uninstall'] as const) {
        const run = await ansiblePlaybook(home, playbook(driver, action), { sandbox_root: sandbox }, '--syntax-check');
        expect([driver, action, run.code, run.output]).toEqual([driver, action, 0, expect.any(String)]);
      }
    }
  }, PLAYBOOK_TEST_TIMEOUT_MS);

  it('nvidia-gpu: installs its layout, is idempotent and uninstalls without a trace', async () => {
    const install = await ansiblePlaybook(home, playbook('nvidia-gpu', 'install'), { sandbox_root: sandbox, driver_version: '550.54.15' });
    expectRecap(install, { failed: 0, changed: 6 });
    expect(await installedFiles(sandbox)).toEqual([
      'etc/ledger-agent/drivers/nvidia-gpu.json',
      'etc/modprobe.d/ledger-nvidia.conf',
      'etc/modules-load.d/ledger-nvidia.conf',
      'etc/systemd/system/nvidia-persistenced.service.d/ledger-agent.conf',
      'opt/ledger-agent/drivers/nvidia-gpu/current',
    ]);
    expect(await readFile(join(sandbox, 'etc/modprobe.d/ledger-nvidia.conf'), 'utf8')).toContain('blacklist nouveau\n');
    expect(await readFile(join(sandbox, 'etc/modules-load.d/ledger-nvidia.conf'), 'utf8')).toBe('nvidia\nnvidia_uvm\nvfio-pci\n');
    expect(JSON.parse(await readFile(join(sandbox, 'etc/ledger-agent/drivers/nvidia-gpu.json'), 'utf8'))).toEqual({
      driver: 'nvidia-gpu',
      version: '550.54.15',
      installedBy: 'ledger-agent',
      files: ['etc/modprobe.d/ledger-nvidia.conf', 'etc/modules-load.d/ledger-nvidia.conf', 'etc/systemd/system/nvidia-persistenced.service.d/ledger-agent.conf'],
    });

    expectRecap(await ansiblePlaybook(home, playbook('nvidia-gpu', 'install'), { sandbox_root: sandbox, driver_version: '550.54.15' }), { failed: 0, changed: 0 });

    expectRecap(await ansiblePlaybook(home, playbook('nvidia-gpu', 'uninstall'), { sandbox_root: sandbox }), { failed: 0, changed: 2 });
    expect(await installedFiles(sandbox)).toEqual([]);
    expectRecap(await ansiblePlaybook(home, playbook('nvidia-gpu', 'uninstall'), { sandbox_root: sandbox }), { failed: 0, changed: 0 });
  }, PLAYBOOK_TEST_TIMEOUT_MS);

  it('nvidia-gpu: an update installs the new version beside the old, unpacks the operator\'s bundle once and moves `current`', async () => {
    expectRecap(await ansiblePlaybook(home, playbook('nvidia-gpu', 'install'), { sandbox_root: sandbox, driver_version: '550.54.15' }), { failed: 0 });
    const bundle = join(home, 'bundle');
    await mkdir(bundle);
    await writeFile(join(bundle, 'MANIFEST'), 'nvidia 555.42.02\n');
    await new Promise<void>((done, fail) => execFile('tar', ['-czf', join(home, 'bundle.tar.gz'), '-C', bundle, 'MANIFEST'], (error) => (error ? fail(error) : done())));
    const upgrade = { sandbox_root: sandbox, driver_version: '555.42.02', driver_bundle: join(home, 'bundle.tar.gz') };
    expectRecap(await ansiblePlaybook(home, playbook('nvidia-gpu', 'install'), upgrade), { failed: 0 });
    expect(await readFile(join(sandbox, 'opt/ledger-agent/drivers/nvidia-gpu/555.42.02/MANIFEST'), 'utf8')).toBe('nvidia 555.42.02\n');
    expect(await readlink(join(sandbox, 'opt/ledger-agent/drivers/nvidia-gpu/current'))).toBe('555.42.02');
    expect(JSON.parse(await readFile(join(sandbox, 'etc/ledger-agent/drivers/nvidia-gpu.json'), 'utf8'))).toMatchObject({ version: '555.42.02' });
    expectRecap(await ansiblePlaybook(home, playbook('nvidia-gpu', 'install'), upgrade), { failed: 0, changed: 0 });
    expect(await installedFiles(join(sandbox, 'opt/ledger-agent/drivers/nvidia-gpu'))).toEqual(['555.42.02/MANIFEST', 'current']);
  }, PLAYBOOK_TEST_TIMEOUT_MS);

  it('sriov-nic: records the boot-time VFs it is given, idempotently, and removes them on uninstall', async () => {
    const vars = { sandbox_root: sandbox, driver_version: '1.2.0', sriov_vfs: { '0000:af:00.0': 8, '0000:86:00.0': 4 } };
    expectRecap(await ansiblePlaybook(home, playbook('sriov-nic', 'install'), vars), { failed: 0 });
    expect(await readFile(join(sandbox, 'etc/ledger-agent/sriov-vfs.conf'), 'utf8')).toBe(
      '# Managed by the ledger agent (sriov-nic 1.2.0): <PF address> <VF count>\n0000:86:00.0 4\n0000:af:00.0 8\n',
    );
    expectRecap(await ansiblePlaybook(home, playbook('sriov-nic', 'install'), vars), { failed: 0, changed: 0 });

    expectRecap(await ansiblePlaybook(home, playbook('sriov-nic', 'uninstall'), { sandbox_root: sandbox }), { failed: 0 });
    expect(await installedFiles(sandbox)).toEqual([]);
  }, PLAYBOOK_TEST_TIMEOUT_MS);

  it('refuses a version that would write outside the install, writing nothing', async () => {
    const run = await ansiblePlaybook(home, playbook('simulated', 'install'), { sandbox_root: sandbox, driver_version: '../../../etc' });

    expectRecap(run, { failed: 1, changed: 0 });
    expect(run.output).toContain('sandbox_root must be an absolute path and driver_version a version string');
    expect(await installedFiles(sandbox)).toEqual([]);
  });
});
