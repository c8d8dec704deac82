/** The signature of `/deployment rollback`, which a failed deployment's card puts on its Roll back button. */
import { z } from 'zod';
import { toolName } from '../args';

/** `/deployment rollback <tool> [--to <deployment id>]`. */
export const deployRollbackSignature = {
  name: 'deployment rollback',
  args: z.object({
    tool: toolName,
    to: z.string().min(1).max(64).optional().describe('opt-to'),
  }),
};
