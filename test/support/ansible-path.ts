// Apart from services.ts (a Jest-only module the bench build leaves out): the in-process agent needs it in the bench too.
/** The real `ansible-playbook` (Debian's ansible-core) that driver playbooks run with. */
export const ansiblePlaybookPath = (): string => process.env.LEDGER_TEST_ANSIBLE_PLAYBOOK ?? '/usr/bin/ansible-playbook';
