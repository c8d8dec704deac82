/**
 * What `deckhand doctor` needs from the store to inspect Redis: the topology from the settings, a
 * client for it, and the key-layout check. The command line reaches the store through here only.
 */
export { checkKeyLayout, infoFields, KeyLayoutError } from '../store/key-layout';
export { connectRedis, type RedisClient } from '../store/redis-connect';
export {
  describeTopology,
  type RedisTopology,
  RedisTopologyError,
  redisTopology,
} from '../store/redis-topology';
