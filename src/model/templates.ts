/** Valid new objects of each kind, shaped as the spec's create samples: base fields, then the kind's template. */
import type { Kind } from './kinds';
import { makeType, TypeNaming } from './typeName';
import type { BaseInfo } from './types';

/** Base fields as a create sample sends them: keys and hrefs null, Links empty. */
function baseFields(typeName: string, commonName: string, naming?: TypeNaming): BaseInfo {
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

/** A new object of `kind` that validates against its schema. */
export function newObject(kind: Kind, commonName: string, naming?: TypeNaming): BaseInfo {
  return { ...baseFields(kind.typeName, commonName, naming), ...kind.template(naming) };
}
