/** Per message type: its writer and reader, a representative message and a file from other software. */
import { CAMT053, CAMT054, PAIN001, PAIN002, PAIN008 } from './bank-files.fixtures.js';
import {
  MessageType,
  readNotification,
  readPain001,
  readPain008,
  readStatement,
  readStatusReport,
  writeNotification,
  writePain001,
  writePain008,
  writeStatement,
  writeStatusReport,
} from './index.js';
import { notification, pain001, pain008, statement, statusReport } from './samples.fixtures.js';

export interface Codec<M> {
  type: MessageType;
  sample: M;
  write(m: M): string;
  read(xml: string): M;
  /** The same message type as another bank or software writes it (bank-files.fixtures.ts). */
  file: string;
}

function codec<M>(type: MessageType, sample: M, write: (m: M) => string, read: (xml: string) => M, file: string) {
  return { type, sample, write, read, file } as Codec<unknown>;
}

export const CODECS: Codec<unknown>[] = [
  codec('pain.001.001.09', pain001, writePain001, readPain001, PAIN001),
  codec('pain.008.001.08', pain008, writePain008, readPain008, PAIN008),
  codec('pain.002.001.10', statusReport, writeStatusReport, readStatusReport, PAIN002),
  codec('camt.054.001.08', notification, writeNotification, readNotification, CAMT054),
  codec('camt.053.001.08', statement, writeStatement, readStatement, CAMT053),
];

/** The sample of that message type as its writer writes it. */
export function written(type: MessageType): string {
  const { write, sample } = CODECS.find((c) => c.type === type)!;
  return write(sample);
}
