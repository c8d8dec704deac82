/**
 * The team parts of `/me`: the locks the person holds, the approvals they can decide and the
 * failures they are on, on the tools of the view (one read of each tool's lock, approval index and
 * claim index, then one per entry found).
 */
import { userKeyOf } from '../../src/core/change-record';
import { DeckhandError } from '../../src/core/errors';
import type { FailureScope } from '../../src/core/failure-claim';
import { absoluteText, relativeText } from '../../src/core/times';
import type { HomeContext, HomeSection } from '../home';

/** At most this many open requests are read per tool. */
const MAX_APPROVALS_PER_TOOL = 5;

/** `until Sat 28 Nov 2026, 18:00 UTC`. */
function until(at: number): string {
  return `until ${absoluteText({ at })}`;
}

/** The locks on the view's tools held by the person. */
export const locksHomeSection: HomeSection = async ({ services, invocation, tools, now }) => {
  const me = userKeyOf(invocation.user);
  const locks = await Promise.all(tools.shown.map((tool) => services.accounts.guards.currentLock(tool, now)));
  const lines = locks.flatMap((lock) =>
    lock && lock.holder === me
      ? [
          `${lock.tool}: ${until(lock.until)}${lock.reason ? ` ("${lock.reason}")` : ''} · /tool unlock ${lock.tool}`,
        ]
      : [],
  );
  return { title: 'Locks you hold', lines };
};

/** The person's linked identity (`source:<login>`), to tell their own requests made elsewhere. */
function identityOf(context: HomeContext): string | undefined {
  const source = context.entries.find((entry) => entry.service === 'source');
  return typeof source?.meta.login === 'string' ? `source:${source.meta.login}` : undefined;
}

/** Whether the person may approve on the tool (the approval gate asks the same). */
async function mayDecide(context: HomeContext, tool: string): Promise<boolean> {
  try {
    await context.services.accounts.access.check(context.invocation.user, 'write', tool);
    return true;
  } catch (error) {
    if (error instanceof DeckhandError) return false;
    throw error;
  }
}

/**
 * Open requests on the view's tools that the person can decide: asked by someone else (another
 * chat user and another linked identity), not decided by them yet, on a tool they may approve on.
 */
export const approvalsHomeSection: HomeSection = async (context) => {
  const me = userKeyOf(context.invocation.user);
  const identity = identityOf(context);
  const perTool = await Promise.all(
    context.tools.shown.map(async (tool) => {
      if (!(await mayDecide(context, tool))) return [];
      const open = await context.services.accounts.approvals.pending(tool, {
        now: context.now,
        limit: MAX_APPROVALS_PER_TOOL,
      });
      return open.filter(
        (record) =>
          userKeyOf(record.requester) !== me &&
          (!identity || record.identity !== identity) &&
          !record.decisions.some((decision) => decision.key === me),
      );
    }),
  );
  const lines = perTool.flat().map((record) => {
    const left = relativeText({ at: record.expiresAt }, context.now);
    return `${record.tool}: /${record.command} asked by ${record.requester.name}, expires ${left} · on its approval card`;
  });
  return { title: 'Approvals waiting for you', lines };
};

/** `mytool job web`, or `mytool deployments` for a tool's unnamed scope. */
function scopeText(scope: FailureScope): string {
  return scope.job ? `${scope.tool} job ${scope.job}` : `${scope.tool} deployments`;
}

/** The failures on the view's tools that the person is on. */
export const claimsHomeSection: HomeSection = async ({ services, invocation, tools }) => {
  const me = userKeyOf(invocation.user);
  const perTool = await Promise.all(tools.shown.map((tool) => services.accounts.failures.claimedOn(tool)));
  const lines = perTool
    .flat()
    .filter((state) => state.claim?.holder === me)
    .map((state) => `${scopeText(state.scope)}: since ${absoluteText({ at: state.claim?.since ?? 0 })}`);
  return { title: 'Failures you are on', lines };
};
