/** The helpers of `deckhand doctor`'s lines, for the CLI (the platforms' checks use them too). */
export {
  type CheckResult,
  credentialsFirst,
  fail,
  field,
  inert,
  ok,
  skip,
  trim,
} from '../../adapters/doctor-kit';
export { type ProbeOptions, type ProbeResult, probe, shown } from '../../adapters/doctor-probe';
