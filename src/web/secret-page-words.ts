/** The words of a secret form page that depend on what it asks for, in the reader's language. */
import type { MessageKey, Translator } from '../i18n/translate';
import type { SecretFormKind, SecretFormSession } from '../store/links-secret-forms';
import { SECRET_FIELDS, type SecretField } from './secret-flow';

const TITLES: Readonly<Record<SecretFormKind, MessageKey>> = {
  tool: 'secret-page-title-tool',
  media: 'secret-page-title-media',
  calendar: 'secret-page-title-calendar',
};

const FIELD_LABELS: Readonly<Record<SecretField['name'], MessageKey>> = {
  token: 'secret-field-token',
  apiKey: 'secret-field-api-key',
  username: 'secret-field-username',
  password: 'secret-field-password',
};

/** The page's title: what it stores. */
export function secretPageTitle(kind: SecretFormKind, say: Translator): string {
  return say.t(TITLES[kind]);
}

/** The page's first line: whose credential it is, and what it is for. */
export function secretPageIntro(session: SecretFormSession, say: Translator): string {
  return session.kind === 'tool'
    ? say.t('secret-page-intro-tool', session.name, session.tool ?? '')
    : say.t('secret-page-intro-account', session.name);
}

/** The form's fields, labelled in the reader's language. */
export function secretPageFields(kind: SecretFormKind, say: Translator): SecretField[] {
  return SECRET_FIELDS[kind].map((field) => ({ ...field, label: say.t(FIELD_LABELS[field.name]) }));
}
