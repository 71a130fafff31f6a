import type { Provider } from '@nestjs/common';

/** The accelerator-request command handlers, registered by AllocationModule. */
export const ARQ_PROVIDERS: Provider[] = [];
