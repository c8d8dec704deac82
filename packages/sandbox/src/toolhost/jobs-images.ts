/**
 * Container images a job can use (J `tjf/core/images.py`): the platform's prebuilt images, by short
 * name, alias or full URL, and build-service images (`tool-<tool>/<image>:<tag>`, with or without
 * the Harbor host). A "/" in the name is what makes an image a build-service one, which changes the
 * defaults (`mount` none, `filelog` off) and allows `mount: none`.
 */

/** A prebuilt image as `GET /images` lists it. */
export interface PrebuiltImage {
  shortname: string;
  image: string;
}

const REGISTRY = 'docker-registry.tools.wmflabs.org';

/** Harbor host of build-service images. */
export const HARBOR_HOST = 'tools-harbor.wmcloud.org';

/** The stable prebuilt images, sorted by short name as the API lists them. */
export const PREBUILT_IMAGES: readonly PrebuiltImage[] = [
  ['bookworm', 'toolforge-bookworm-sssd'],
  ['jdk17', 'toolforge-jdk17-sssd-base'],
  ['mariadb', 'toolforge-mariadb-sssd-base'],
  ['node18', 'toolforge-node18-sssd-base'],
  ['node20', 'toolforge-node20-sssd-base'],
  ['perl5.36', 'toolforge-perl536-sssd-base'],
  ['php8.2', 'toolforge-php82-sssd-base'],
  ['python3.11', 'toolforge-python311-sssd-base'],
  ['python3.13', 'toolforge-python313-sssd-base'],
  ['ruby3.1', 'toolforge-ruby31-sssd-base'],
  ['tcl8.6', 'toolforge-tcl86-sssd-base'],
].map(([shortname, name]) => ({ shortname: shortname as string, image: `${REGISTRY}/${name}:latest` }));

/** How a job's `imagename` resolved. */
export interface ResolvedImage {
  /** Build-service image (Harbor) rather than a prebuilt one. */
  buildservice: boolean;
  /** `image_state` of the job response. */
  state: string;
}

/**
 * Resolves an `imagename`; undefined when no such image exists (the API's 400 "No such image").
 * Build-service images are accepted without checking Harbor (the emulator does not track every
 * image its builds produced).
 */
export function resolveImage(imagename: string): ResolvedImage | undefined {
  const withoutHost = imagename.startsWith(`${HARBOR_HOST}/`)
    ? imagename.slice(HARBOR_HOST.length + 1)
    : imagename;
  if (/^tool-[a-z0-9][-a-z0-9.]*\/[^/\s]+$/.test(withoutHost)) return { buildservice: true, state: 'stable' };
  const bare = imagename.replace(/:latest$/, '');
  const prebuilt = PREBUILT_IMAGES.find(
    (img) =>
      img.shortname === imagename ||
      img.image === imagename ||
      img.image.replace(/:latest$/, '') === bare ||
      img.image.endsWith(`/${bare}:latest`) ||
      `tf-${img.shortname}` === imagename,
  );
  return prebuilt ? { buildservice: false, state: 'stable' } : undefined;
}
