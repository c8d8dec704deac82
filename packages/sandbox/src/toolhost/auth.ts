/**
 * The API gateway's authentication, as Hono middleware shared by every area.
 *
 * Real model (specs/toolforge/README.md, "Auth model"): the tool presents its client certificate
 * (mTLS) to the gateway, which maps the certificate to the tool, rejects a path naming another tool
 * with 403, and forwards `X-Toolforge-Tool: <tool>` to the backend; backends trust that header. The
 * external gateway accepts only the components deploy token (`?token=`), and only on deployment
 * create and show.
 *
 * The emulator serves one app on two listeners and tells them apart by the socket:
 * - `internal`: HTTPS, client certificate requested and checked against the sandbox CA; its CN is the
 *   tool. A deploy token is accepted there too (the internal server "additionally" takes certs).
 * - `external`: plain HTTP; deploy token only.
 * - `direct`: no socket at all (`app.request()` in tests): behaves like a backend behind the gateway,
 *   trusting the `x-toolforge-tool` header (a header naming another tool than the path still gets
 *   the gateway's 403).
 *
 * Unknown tools: a certificate only exists for a tool that exists, so the real platform can never
 * authenticate an unknown tool; the emulator answers 401 (in the area's error shape) when a request
 * names a tool the context does not know. Build ids of another tool get the builds API's own 401
 * "does not exist or belong to tool" (see builds.ts).
 */
import type { TLSSocket } from 'node:tls';
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { SandboxContext } from './context';
import { areaOfPath, sendError, type ToolhostArea } from './errors';

/** Which listener a request came in on. */
export type Listener = 'internal' | 'external' | 'direct';

/** Hono environment of the emulator's apps: node bindings (absent with `app.request`) and variables. */
export interface ToolhostEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    /** The authenticated tool (the gateway's `X-Toolforge-Tool`). Set by {@link toolAuth}. */
    tool: string;
    /** How the tool was authenticated. Set by {@link toolAuth}. */
    authMethod: 'certificate' | 'header' | 'token';
    /** The sandbox, set by the root app so middleware can see the known tools. */
    sandbox: SandboxContext;
  };
}

/** Identity the transport established for a request. */
export interface TransportIdentity {
  listener: Listener;
  /** CN of a client certificate that chains to the sandbox CA (internal listener only). */
  certTool?: string;
  /** Why a presented certificate was not accepted. */
  certError?: string;
}

/** Reads the listener and the client certificate of a request from its node socket. */
export function transportIdentity(c: Context): TransportIdentity {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const socket = incoming?.socket as (TLSSocket & { encrypted?: boolean }) | undefined;
  if (!socket) return { listener: 'direct' };
  if (!socket.encrypted) return { listener: 'external' };
  if (!socket.authorized) {
    return { listener: 'internal', certError: String(socket.authorizationError ?? 'no client certificate') };
  }
  const cert = socket.getPeerCertificate();
  const cn = cert?.subject?.CN;
  const certTool = Array.isArray(cn) ? cn[0] : cn;
  return certTool ? { listener: 'internal', certTool } : { listener: 'internal', certError: 'no CN' };
}

/** Outcome of a deploy token check: undefined when valid, else the 401 message. */
export type TokenVerifier = (tool: string, token: string) => string | undefined;

/** Options of {@link toolAuth}. */
export interface ToolAuthOptions {
  /** Error shape to answer with; by default inferred from the path prefix (`/builds/…`). */
  area?: ToolhostArea;
  /** Whether this request may authenticate with a deploy token (`?token=`). Default: never. */
  acceptsToken?: (c: Context) => boolean;
  /** Checks a deploy token; required for {@link acceptsToken} to have any effect. */
  verifyToken?: TokenVerifier;
}

const TOOL_IN_PATH = /\/tool\/([^/]+)/;

/** The tool named in the path: `:toolname`, `:tool_name`, or the segment after `/tool/`. */
export function toolInPath(c: Context): string | undefined {
  const param = c.req.param() as Record<string, string | undefined>;
  const named = param.toolname ?? param.tool_name;
  if (named) return decodeURIComponent(named);
  const match = TOOL_IN_PATH.exec(c.req.path);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

function missingIdentityMessage(area: ToolhostArea, tokenRoute: boolean): string {
  if (area === 'components') {
    // components api/auth.py wording.
    return tokenRoute
      ? "The 'x-toolforge-tool' header or a token are required"
      : "The 'x-toolforge-tool' header is required";
  }
  return 'Unauthorized: this endpoint needs the tool client certificate (mTLS) on the internal API';
}

/**
 * Middleware for `/tool/:toolname/*` (or `:tool_name`) routes: establishes the tool from the client
 * certificate, the `x-toolforge-tool` header (direct mode) or a deploy token, answers 401/403 in the
 * area's own error shape otherwise, and sets `c.get('tool')`.
 */
export function toolAuth(options: ToolAuthOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    const area = options.area ?? areaOfPath(c.req.path) ?? 'jobs';
    const pathTool = toolInPath(c);
    if (!pathTool) return sendError(c, area, 404, 'Not Found');
    const identity = transportIdentity(c);
    const token = c.req.query('token');
    const tokenRoute = options.acceptsToken?.(c) ?? false;
    const fail = (status: ContentfulStatusCode, message: string) => sendError(c, area, status, message);
    const known = (c.get('sandbox') as SandboxContext | undefined)?.tools;

    let tool: string | undefined;
    let method: ToolhostEnv['Variables']['authMethod'] = 'certificate';
    if (identity.listener === 'internal' && identity.certTool) {
      tool = identity.certTool;
    } else if (identity.listener === 'direct' && c.req.header('x-toolforge-tool')) {
      tool = c.req.header('x-toolforge-tool');
      method = 'header';
    }

    if (tool !== undefined) {
      // The gateway compares the certificate's tool with the path: another tool's path is 403.
      if (tool !== pathTool) {
        return fail(403, `Tool '${tool}' is not allowed to access the resources of tool '${pathTool}'`);
      }
    } else if (tokenRoute && token !== undefined && options.verifyToken) {
      if (known && !known.has(pathTool)) {
        return fail(401, `The tool '${pathTool}' has no deploy token yet, create one first`);
      }
      const problem = options.verifyToken(pathTool, token);
      if (problem) return fail(401, problem);
      tool = pathTool;
      method = 'token';
    } else {
      // Jobs answers a missing header with 403 (README: "a missing x-toolforge-tool header is 403");
      // the gateways answer 401.
      const status = identity.listener === 'direct' && area === 'jobs' ? 403 : 401;
      return fail(status, missingIdentityMessage(area, tokenRoute));
    }

    if (known && !known.has(tool)) return fail(401, `Tool '${tool}' does not exist`);
    c.set('tool', tool);
    c.set('authMethod', method);
    try {
      // What the gateway forwards to the backend.
      c.req.raw.headers.set('x-toolforge-tool', tool);
    } catch {
      // immutable headers: c.get('tool') carries the same information
    }
    await next();
  };
}
