import { MemorySaver } from './memorySaver'
import { describeSaverContract } from './saverContract'

describeSaverContract('MemorySaver', () => new MemorySaver())
