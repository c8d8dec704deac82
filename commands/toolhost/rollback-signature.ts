/** The signature of `/deploy rollback`, which a failed deployment's card puts on its Roll back button. */
import { z } from 'zod';
import { toolName } from '../args';

/** `/deploy rollback <tool> [--to <deployment id>]`. */
export const deployRollbackSignature = {
  name: 'deploy rollback',
  args: z.object({
    tool: toolName,
    to: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('the successful deployment to return to (default: the last one before the newest)'),
  }),
};
