/**
 * The tool platform's links, as an unfurl shows them: a tool's web address
 * (`https://<tool>.toolforge.org/…`) and its admin page (`toolsadmin.wikimedia.org/tools/id/<tool>`)
 * show the tool's status card; a build id (`<tool>-buildpacks-pipelinerun-<id>`) its build; a
 * deployment id (`YYYYmmdd-HHMMSS-<10 characters>`) its deployment in the conversation's bound tool.
 */
import type { LinkRecogniser, RecognisedLink } from '../../src/core/unfurls';

const TOOL = '[a-z0-9](?:[a-z0-9-]{0,50}[a-z0-9])?';
const TOOL_PAGE = new RegExp(`\\bhttps?://(${TOOL})\\.toolforge\\.org(?![\\w.-])[^\\s<>|]*`, 'gi');
const ADMIN_PAGE = new RegExp(
  `\\bhttps?://toolsadmin\\.wikimedia\\.org/tools/id/(${TOOL})(?![\\w-])[^\\s<>|]*`,
  'gi',
);
const BUILD_ID = new RegExp(`(?<![\\w-])(${TOOL})-buildpacks-pipelinerun-([a-z0-9]{5})(?![\\w-])`, 'g');
const DEPLOY_ID = /(?<![\w-])(\d{8}-\d{6}-[a-z0-9]{10})(?![\w-])/g;

function all(pattern: RegExp, text: string, make: (match: RegExpExecArray) => RecognisedLink) {
  return [...text.matchAll(pattern)].map(make);
}

/** Tool pages, admin pages, build ids and deployment ids in a message. */
export const toolhostLinks: LinkRecogniser = (text) => {
  const status = (match: RegExpExecArray): RecognisedLink => {
    const tool = (match[1] as string).toLowerCase();
    return { text: match[0], subject: `tool:${tool}`, line: `/tool status ${tool}` };
  };
  return [
    ...all(TOOL_PAGE, text, status),
    ...all(ADMIN_PAGE, text, status),
    ...all(BUILD_ID, text, (match) => ({
      text: match[0],
      subject: `build:${match[0]}`,
      line: `/build show ${match[1]} ${match[0]}`,
    })),
    ...all(DEPLOY_ID, text, (match) => ({
      text: match[0],
      subject: `deployment:${match[0]}`,
      line: `/deployment show ${match[0]}`,
    })),
  ];
};
