import type { HelpGuide } from '../../src/core/help-sections';

/**
 * The help's sections, one per service as `commands/` is grouped, and the commands a newcomer needs
 * first. A command group missing here still shows in the overview (under "More").
 */
export const HELP_GUIDE: HelpGuide = {
  firstSteps: ['/deploy <tool>', '/jobs list <tool>', '/logs <tool> <job>'],
  sections: [
    {
      id: 'tools',
      title: 'help-section-tools',
      groups: {
        deploy: 'help-group-deploy',
        deployment: 'help-group-deployment',
        build: 'help-group-build',
        jobs: 'help-group-jobs',
        webservice: 'help-group-webservice',
        logs: 'help-group-logs',
        envvars: 'help-group-envvars',
        config: 'help-group-config',
        token: 'help-group-token',
        tool: 'help-group-tool',
        subscribe: 'help-group-subscribe',
        unsubscribe: 'help-group-unsubscribe',
        subscriptions: 'help-group-subscriptions',
        tail: 'help-group-tail',
        task: 'help-group-task',
      },
    },
    {
      id: 'calendar',
      title: 'help-section-calendar',
      groups: {
        event: 'help-group-event',
        events: 'help-group-events',
        venues: 'help-group-venues',
        organizers: 'help-group-organizers',
        categories: 'help-group-categories',
        tags: 'help-group-tags',
        calendar: 'help-group-calendar',
      },
    },
    { id: 'media', title: 'help-section-media', groups: { media: 'help-group-media' } },
    {
      id: 'source',
      title: 'help-section-source',
      groups: { source: 'help-group-source' },
    },
    {
      id: 'accounts',
      title: 'help-section-accounts',
      groups: {
        link: 'help-group-link',
        unlink: 'help-group-unlink',
        whoami: 'help-group-whoami',
        me: 'help-group-me',
        audit: 'help-group-audit',
        timezone: 'help-group-timezone',
        notify: 'help-group-notify',
        language: 'help-group-language',
      },
    },
  ],
};
