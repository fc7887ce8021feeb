/** What a save can come to, typed so that no caller decides by reading message text. */
import type { BaseInfo } from '../model/types';

/** Why a save was refused; each kind has its own next step for the user. */
export type RefusalKind =
  | 'invalid' // not JSON, or the schema says no: fix the problems
  | 'identity' // $type, Key, Href or folder edited: they cannot change
  | 'notStored' // Notes or Links edited: a PUT does not store them
  | 'readonly' // the service cannot update this kind
  | 'auth' // sign in again
  | 'permission'
  | 'notFound' // deleted on the server
  | 'unreachable' // network or time-out: nothing known to be sent
  | 'server' // the service said no for another reason
  | 'cancelled'; // the user said no at the production prompt

export interface Refusal {
  kind: RefusalKind;
  /** One line: what is wrong and what to do. */
  message: string;
  /** JSON pointers of the fields concerned, when known. */
  pointers?: string[];
}

export type SaveOutcome =
  /** The object as the server now holds it (read after the write). */
  | { status: 'saved'; object: BaseInfo; created: boolean; replaced?: BaseInfo }
  /** Nothing to send: the edit equals the server's copy. */
  | { status: 'unchanged'; object: BaseInfo }
  /** The server's copy moved on since the edit's base version; nothing was sent. */
  | { status: 'conflict'; server: BaseInfo; base: number | null }
  | { status: 'refused'; refusal: Refusal };
