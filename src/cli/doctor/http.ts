/** Harmless requests for `deckhand doctor` (see adapters/doctor-probe.ts). */
export { type ProbeOptions, type ProbeResult, probe, shown } from '../../wiring/doctor-kit';
