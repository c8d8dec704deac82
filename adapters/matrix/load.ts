/**
 * Matrix: matrix-js-sdk over the Client-Server API — a sync loop, invitations from allowed servers,
 * prefixed commands, threads, edits, numbered buttons and reactions, files through the media
 * repository. See docs/matrix.md.
 */
import type { AdapterContext, PlatformAdapter } from '../types';
import { MatrixAdapter, type MatrixAdapterOptions } from './adapter';
import { matrixConfigured } from './checks';

/** Creates the Matrix adapter when it is configured; `undefined` otherwise. */
export function createMatrixAdapter(
  context: AdapterContext,
  options: MatrixAdapterOptions = {},
): PlatformAdapter | undefined {
  if (!matrixConfigured(context.config)) return undefined;
  return new MatrixAdapter(context, options);
}

export { MatrixAdapter, type MatrixAdapterOptions } from './adapter';
