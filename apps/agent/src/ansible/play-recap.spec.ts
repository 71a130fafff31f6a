import { parsePlayRecap } from './play-recap';

const OUTPUT = `
PLAY [install] *****************************************************************

TASK [write marker] ************************************************************
changed: [localhost]

PLAY RECAP *********************************************************************
localhost                  : ok=2    changed=1    unreachable=0    failed=0    skipped=3    rescued=0    ignored=1
other                      : ok=9    changed=9    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
`;

describe('parsePlayRecap', () => {
  it("reads localhost's counters from the PLAY RECAP", () => {
    expect(parsePlayRecap(OUTPUT)).toEqual({ ok: 2, changed: 1, unreachable: 0, failed: 0, skipped: 3, rescued: 0, ignored: 1 });
    expect(parsePlayRecap(OUTPUT, 'other')).toMatchObject({ ok: 9, changed: 9 });
  });

  it('takes the last recap, and zero for counters an older Ansible does not print', () => {
    const twoRuns = `${OUTPUT}\nPLAY RECAP ***\nlocalhost : ok=1 changed=0 unreachable=0 failed=1\n`;
    expect(parsePlayRecap(twoRuns)).toEqual({ ok: 1, changed: 0, unreachable: 0, failed: 1, skipped: 0, rescued: 0, ignored: 0 });
  });

  it('is null when the run ended before its recap', () => {
    expect(parsePlayRecap('ERROR! the playbook: missing.yml could not be found')).toBeNull();
    expect(parsePlayRecap('PLAY RECAP ***\nsomehost : ok=1')).toBeNull();
  });
});
