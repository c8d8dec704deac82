/**
 * The team parts of `/me`: the locks the person holds, the approvals they can decide and the
 * failures they are on, on the tools of the view (one read of each tool's lock, approval index and
 * claim index, then one per entry found).
 */
import { userKeyOf } from '../../src/core/change-record';
import { DeckhandError } from '../../src/core/errors';
import type { FailureScope } from '../../src/core/failure-claim';
import { absoluteText, relativeText } from '../../src/core/times';
import type { Translator } from '../../src/i18n/translate';
import type { HomeContext, HomeSection } from '../home';

/** At most this many open requests are read per tool. */
const MAX_APPROVALS_PER_TOOL = 5;

/** The words of the `/me` view: the person's own language (only they see it). */
function sayTo(context: Pick<HomeContext, 'say'>): Translator {
  return context.say;
}

/** The locks on the view's tools held by the person. */
export const locksHomeSection: HomeSection = async (context) => {
  const { services, invocation, tools, now } = context;
  const say = sayTo(context);
  const me = userKeyOf(invocation.user);
  const locks = await Promise.all(tools.shown.map((tool) => services.accounts.guards.currentLock(tool, now)));
  const lines = locks.flatMap((lock) => {
    if (!lock || lock.holder !== me) return [];
    const until = absoluteText({ at: lock.until }, undefined, say.language);
    return [
      lock.reason
        ? say.t('lock-home-line-reason', lock.tool, until, lock.reason)
        : say.t('lock-home-line', lock.tool, until),
    ];
  });
  return { title: say.t('lock-home-title'), lines };
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
  const say = sayTo(context);
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
    const left = relativeText({ at: record.expiresAt }, context.now, say.language);
    return say.t('protect-home-line', record.tool, `/${record.command}`, record.requester.name, left);
  });
  return { title: say.t('protect-home-title'), lines };
};

/** `mytool job web`, or `mytool deployments` for a tool's unnamed scope. */
function scopeText(scope: FailureScope, say: Translator): string {
  return scope.job
    ? say.t('claim-home-scope-job', scope.tool, scope.job)
    : say.t('claim-home-scope-deployments', scope.tool);
}

/** The failures on the view's tools that the person is on. */
export const claimsHomeSection: HomeSection = async (context) => {
  const { services, invocation, tools } = context;
  const say = sayTo(context);
  const me = userKeyOf(invocation.user);
  const perTool = await Promise.all(tools.shown.map((tool) => services.accounts.failures.claimedOn(tool)));
  const lines = perTool
    .flat()
    .filter((state) => state.claim?.holder === me)
    .map((state) =>
      say.t(
        'claim-home-line',
        scopeText(state.scope, say),
        absoluteText({ at: state.claim?.since ?? 0 }, undefined, say.language),
      ),
    );
  return { title: say.t('claim-home-title'), lines };
};
