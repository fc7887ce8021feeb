/**
 * TypeScript shapes of the service's objects (part 2 of the spec), for the
 * code that reads their fields. A kind whose fields no code reads needs none:
 * its objects are BaseInfo, checked by its schema.
 */

export interface Typed {
  $type: string;
}

export interface Anchor extends Typed {
  Href: string | null;
  Text: string | null;
}
export interface Link extends Typed {
  Relation: string | null;
  Anchor: Anchor | null;
}
export interface MonikerItem extends Typed {
  Namespace: string | null;
  Nickname: string | null;
}
export interface ObjectLinkItem extends Typed {
  Href: string | null;
  LinkedObjectKey: string | null;
  CommonName: string | null;
  Relation: string | null;
  MetaDataBson?: { $type: string; $value: string } | null;
}
export interface MetadataItem extends Typed {
  Href?: string | null;
  Application: string | null;
  /** A JSON-encoded string. */
  Values: string | null;
  ShouldPublishUpdateEvents?: boolean | null;
}
export interface NoteInfo extends Typed {
  Key: string | null;
  Href: string | null;
  NoteText: string | null;
  CreatedOn?: string | null;
  User?: ObjectLinkItem | null;
}

/**
 * Fields every stored object has (Item, then BaseInfo). Keys and hrefs are
 * the server's to give: a body that creates an object may leave them out.
 */
export interface BaseInfo extends Typed {
  Href?: string | null;
  CommonName: string | null;
  ConcurrencyVersion?: number | null;
  InFolderHref?: string | null;
  InFolderKey?: string | null;
  IsGlobal?: boolean;
  Key?: string | null;
  Links?: Link[] | null;
  Metadata?: MetadataItem[] | null;
  Monikers?: MonikerItem[] | null;
  Notes?: NoteInfo[] | null;
  ObjectLinks?: ObjectLinkItem[] | null;
  Tags?: string[] | null;
  /** The real service returns more than the spec shows. */
  [extra: string]: unknown;
}

/** @internal Exported for its unit test. */
export interface EngageSiteInfo extends BaseInfo {
  SiteKeyBase64: string | null;
  SiteReference: string | null;
}

export interface InputScannerReportingPriority extends Typed {
  CommonName: string | null;
  Priority: number;
  StatusCode: number;
  MinResistanceCode: number;
  MaxResistanceCode: number;
}

export interface InputScannerInfo extends BaseInfo {
  InputScannerReportingPriorities: InputScannerReportingPriority[];
  NonSettlingErrorPriority: number;
  NonSettlingErrorStatus: number;
}

export interface AddressBase extends Typed {
  Key?: string | null;
  Href?: string | null;
  IsPrivate: boolean;
  Type: string | null;
}
export interface PhoneInfo extends AddressBase {
  Number: string | null;
}
export interface EmailAddressInfo extends AddressBase {
  MailTo: string | null;
}
export interface MailingAddressInfo extends AddressBase {
  Street?: string | null;
  City?: string | null;
  Province?: string | null;
  Country?: string | null;
  PostalCode?: string | null;
}
export type AddressInfo = PhoneInfo | EmailAddressInfo | MailingAddressInfo;

export interface PersonInfo extends BaseInfo {
  GivenName?: string | null;
  Surname?: string | null;
  Addresses?: AddressInfo[] | null;
  CardAssignments?: unknown[] | null;
}

export type FolderInfo = BaseInfo;
export interface InstanceInfo extends BaseInfo {
  TimeZone?: string | null;
}

export interface PushNotificationRequest extends Typed {
  AttachedImage?: ObjectLinkItem | null;
  EventRecipientKeys?: string[] | null;
  Message?: string | null;
  MessageTemplateKey?: string | null;
  Metadata?: MetadataItem | null;
  ObjectLinks?: ObjectLinkItem[] | null;
  /** Number (or name) of the delivery type; see `pushTypes.ts`. */
  PushNotificationType: number | string;
  RecipientKeys?: string[] | null;
  Subject?: string | null;
}
