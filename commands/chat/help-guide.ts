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
      title: 'Tool platform',
      groups: {
        deploy: 'deploy a tool and follow it to the end',
        deployment: 'past and running deployments',
        build: 'build images, follow them, read their logs',
        jobs: 'run, restart and inspect jobs',
        webservice: 'start, restart, stop and read the web service',
        logs: 'read or follow a job’s log',
        envvars: 'environment variables',
        config: 'the tool’s components configuration',
        token: 'the tool’s deploy token',
        tool: 'one card with everything about a tool; bind a conversation to it; lock it or freeze it weekly',
        subscribe: 'announce a tool’s builds, deployments and jobs here',
        unsubscribe: 'stop those announcements',
        subscriptions: 'what this conversation is subscribed to',
        tail: 'stop a live log',
        task: 'a Phabricator task’s title, status and link',
      },
    },
    {
      id: 'calendar',
      title: 'Calendar',
      groups: {
        event: 'create, show, update and cancel one event',
        events: 'upcoming events',
        venues: 'the calendar’s venues',
        organizers: 'the calendar’s organizers',
        categories: 'event categories',
        tags: 'event tags',
        calendar: 'a daily or weekly digest here; which calendar is used',
      },
    },
    { id: 'media', title: 'Media', groups: { media: 'upload, list, rename and share media files' } },
    {
      id: 'source',
      title: 'Source host',
      groups: { source: 'rate limits, repository migrations and source imports' },
    },
    {
      id: 'accounts',
      title: 'Accounts',
      groups: {
        link: 'link your source-host account or store your own keys',
        unlink: 'remove what you linked',
        whoami: 'your roles and what you linked',
        me: 'your tools and their status, your locks, claims and approvals waiting for you',
        audit: 'who changed what',
        timezone: 'the time zone of times in this conversation',
        notify: 'your direct messages about work you started, quiet hours',
      },
    },
  ],
};
