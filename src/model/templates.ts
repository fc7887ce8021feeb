/** Valid new objects of each kind, shaped as the spec's create samples. */
import { Kind, KindId } from './kinds';
import { makeType, TypeNaming } from './typeName';
import { sampleRanges } from './statusCodes';
import type { BaseInfo, InputScannerReportingPriority } from './types';

/** Base fields as a create sample sends them: keys and hrefs null, Links empty. */
export function baseFields(typeName: string, commonName: string, naming?: TypeNaming): BaseInfo {
  return {
    $type: makeType(typeName, naming),
    Href: null,
    CommonName: commonName,
    ConcurrencyVersion: null,
    InFolderHref: null,
    InFolderKey: null,
    IsGlobal: false,
    Key: null,
    Links: [],
    Metadata: [],
    Monikers: [],
    Notes: [],
    ObjectLinks: [],
    Tags: [],
  };
}

export function samplePriorities(naming?: TypeNaming): InputScannerReportingPriority[] {
  return sampleRanges.map(([CommonName, MinResistanceCode, MaxResistanceCode, Priority, StatusCode]) => ({
    $type: makeType('InputScannerReportingPriority', naming),
    CommonName, Priority, StatusCode, MinResistanceCode, MaxResistanceCode,
  }));
}

const extraFields: Record<KindId, (naming?: TypeNaming) => Record<string, unknown>> = {
  folder: () => ({}),
  engageSite: () => ({ SiteKeyBase64: null, SiteReference: null }),
  inputScanner: (naming) => ({
    InputScannerReportingPriorities: samplePriorities(naming),
    NonSettlingErrorPriority: 1,
    NonSettlingErrorStatus: 6,
  }),
  serviceContainer: () => ({ MacAddress: null, IsAuthenticated: false }),
  serviceContainerModule: () => ({ ProductName: null, VersionString: null, EntryPointDll: null, EntryPointName: null }),
  person: () => ({ GivenName: '', Surname: '', Addresses: [], CardAssignments: null }),
};

/** A new object of `kind` that validates against its schema. */
export function newObject(kind: Kind, commonName: string, naming?: TypeNaming): BaseInfo {
  return { ...baseFields(kind.typeName, commonName, naming), ...extraFields[kind.id](naming) };
}
