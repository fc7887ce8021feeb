/**
 * Seed data. `demo`: a small organisation with nested folders and every kind,
 * deterministic (a seeded PRNG, fixed keys) so tests can rely on names and
 * counts. `empty`: the instance only.
 */
import { Kind, kind } from '../../model/kinds';
import { newObject } from '../../model/templates';
import { makeType } from '../../model/typeName';
import type { AddressInfo, BaseInfo } from '../../model/types';
import { createObject } from './creation';
import { folderPath } from '../../model/routes';
import { serverLinks } from './objects';
import { Store } from './store';

type SeedName = 'demo' | 'empty';

export const defaultInstanceName = 'Demo Instance';

export interface FolderPlan {
  name: string;
  engageSites?: number;
  inputScanners?: number;
  /** Each container comes with `modulesPerContainer` modules in the same folder. */
  serviceContainers?: number;
  people?: number;
  folders?: FolderPlan[];
}

/** @internal Exported for its unit test. */
export const modulesPerContainer = 3;

/**
 * The demo layout; the root is the instance.
 * @internal Exported for its unit test.
 */
export const demoPlan: FolderPlan = {
  name: defaultInstanceName,
  engageSites: 1,
  serviceContainers: 2,
  folders: [
    {
      name: 'Head Office',
      engageSites: 2,
      people: 260,
      folders: [
        { name: 'Floor 1', inputScanners: 4 },
        { name: 'Floor 2', inputScanners: 2, engageSites: 1 },
      ],
    },
    { name: 'Warehouse', engageSites: 1, inputScanners: 2, serviceContainers: 1, people: 12 },
  ],
};

/**
 * Mulberry32: a small deterministic PRNG, uniform in [0, 1).
 * @internal Also drives the fuzz test's inputs.
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic 24-hex keys: increasing seconds from a fixed epoch, then 16 PRNG hex digits. */
function keySequence(random: () => number): () => string {
  let seconds = 0x65a1f000;
  const hex8 = () =>
    Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return () => (seconds++).toString(16) + hex8() + hex8();
}

function instanceObject(key: string, name: string): BaseInfo {
  return {
    $type: makeType('InstanceInfo'),
    Href: folderPath(key),
    CommonName: name,
    ConcurrencyVersion: 1,
    InFolderHref: folderPath(key),
    InFolderKey: key,
    IsGlobal: false,
    Key: key,
    Links: serverLinks({ namespace: 'Feenics.Keep.WebApi.Model', assembly: 'Feenics.Keep.WebApi.Model' }, true),
    Metadata: [],
    Monikers: [],
    Notes: [],
    ObjectLinks: [],
    Tags: [],
    TimeZone: 'UTC',
  };
}

export function seedStore(seed: SeedName, instanceName = defaultInstanceName): Store {
  const random = prng(0x0e5a11d);
  const newKey = keySequence(prng(0x6e79));
  const store = new Store(newKey());
  store.insert('instance', instanceObject(store.instanceKey, instanceName));
  if (seed === 'demo') new DemoSeeder(store, random, newKey).folder(demoPlan, store.instanceKey);
  return store;
}

const givenNames = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Ava',
  'Elijah',
  'Sophia',
  'Lucas',
  'Isabella',
  'Mateo',
  'Mia',
  'Leo',
  'Charlotte',
  'Ethan',
  'Aaliyah',
  'Hiroshi',
  'Priya',
  'Kwame',
  'Sofia',
  'Mohammed',
  'Chloé',
  'Anders',
  'Zanele',
  'Wei',
  'Fatima',
  'Diego',
  'Nadia',
  'Tomasz',
  'Aoife',
  'Ravi',
  'Léa',
  'Samuel',
  'Ingrid',
  'Jamal',
];
const surnames = [
  'Smith',
  'Tremblay',
  'Nguyen',
  'García',
  'Martin',
  'Roy',
  'Wilson',
  'MacDonald',
  'Gagnon',
  'Brown',
  'Chen',
  'Singh',
  'Kowalski',
  'Okafor',
  'Johansson',
  'Müller',
  "O'Brien",
  'Dubois',
  'Patel',
  'Kim',
  'Rossi',
  'Haddad',
  'Lefebvre',
  'Morrison',
  'Tanaka',
  'Novak',
  'Mensah',
  'Ferreira',
  'Campbell',
  'Lindqvist',
];
const streets = [
  'Bank Street',
  'Elgin Street',
  'King Street West',
  'Rue Sainte-Catherine',
  'Wellington Street',
  'Main Street',
  'Queen Street',
  'Carling Avenue',
  'Rideau Street',
  'Somerset Street',
];
const cities: Array<[string, string, string]> = [
  ['Ottawa', 'ON', 'K1P'],
  ['Toronto', 'ON', 'M5H'],
  ['Montréal', 'QC', 'H3B'],
  ['Halifax', 'NS', 'B3J'],
  ['Calgary', 'AB', 'T2P'],
  ['Vancouver', 'BC', 'V6B'],
];
const siteNames = ['Main Entrance', 'Loading Dock', 'Server Room', 'Executive Suite', 'Parking Garage', 'Staff Lounge'];
const scannerNames = ['Door Contact', 'Glass Break', 'Motion Detector', 'Tamper Switch', 'Request to Exit', 'Panic Button'];
const moduleTemplates: Array<[string, string, string]> = [
  ['Access Panel Driver', 'Oms.Modules.AccessPanel.dll', 'Oms.Modules.AccessPanel.AccessPanelModule'],
  ['Video Bridge', 'Oms.Modules.VideoBridge.dll', 'Oms.Modules.VideoBridge.VideoBridgeModule'],
  ['Elevator Interface', 'Oms.Modules.Elevator.dll', 'Oms.Modules.Elevator.ElevatorModule'],
];

class DemoSeeder {
  private counters = { site: 0, scanner: 0, container: 0, person: 0 };

  constructor(
    private readonly store: Store,
    private readonly random: () => number,
    private readonly newKey: () => string,
  ) {}

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  /** A whole number from 0 up to `n`, not `n`. */
  private below(n: number): number {
    return Math.floor(this.random() * n);
  }

  private hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i++)
      s += Math.floor(this.random() * 256)
        .toString(16)
        .padStart(2, '0');
    return s;
  }

  private add(k: Kind, folderKey: string, fields: Record<string, unknown>): BaseInfo {
    const obj = { ...newObject(k, typeof fields.CommonName === 'string' ? fields.CommonName : ''), ...fields };
    return createObject({ store: this.store, newKey: this.newKey }, k, folderKey, obj);
  }

  folder(plan: FolderPlan, folderKey: string): void {
    for (let i = 0; i < (plan.engageSites ?? 0); i++) this.engageSite(folderKey, plan.name);
    for (let i = 0; i < (plan.inputScanners ?? 0); i++) this.inputScanner(folderKey, plan.name);
    for (let i = 0; i < (plan.serviceContainers ?? 0); i++) this.serviceContainer(folderKey);
    for (let i = 0; i < (plan.people ?? 0); i++) this.person(folderKey);
    for (const child of plan.folders ?? []) {
      const f = this.add(kind('folder'), folderKey, { CommonName: child.name });
      this.folder(child, f.Key as string);
    }
  }

  private engageSite(folderKey: string, place: string): void {
    const n = ++this.counters.site;
    const ref = `${this.hex(4)}-${this.hex(2)}-${this.hex(2)}-${this.hex(2)}-${this.hex(6)}`;
    this.add(kind('engageSite'), folderKey, {
      CommonName: `${place} ${this.pick(siteNames)} ${n}`,
      SiteReference: ref,
      SiteKeyBase64: Buffer.from(this.hex(32), 'hex').toString('base64'),
    });
  }

  private inputScanner(folderKey: string, place: string): void {
    const n = ++this.counters.scanner;
    this.add(kind('inputScanner'), folderKey, { CommonName: `${place} ${this.pick(scannerNames)} IS-${String(n).padStart(3, '0')}` });
  }

  private serviceContainer(folderKey: string): void {
    const n = ++this.counters.container;
    const mac = (this.hex(6).match(/../g) as string[]).join(':').toUpperCase();
    this.add(kind('serviceContainer'), folderKey, {
      CommonName: `Service Container ${String(n).padStart(2, '0')}`,
      MacAddress: mac,
      IsAuthenticated: n % 2 === 1,
    });
    for (const [product, dll, entry] of moduleTemplates.slice(0, modulesPerContainer)) {
      this.add(kind('serviceContainerModule'), folderKey, {
        CommonName: `${product} (container ${String(n).padStart(2, '0')})`,
        ProductName: product,
        VersionString: `${1 + this.below(4)}.${this.below(10)}.${this.below(20)}.${1000 + this.below(9000)}`,
        EntryPointDll: dll,
        EntryPointName: entry,
      });
    }
  }

  private person(folderKey: string): void {
    const n = ++this.counters.person;
    const given = this.pick(givenNames);
    const surname = this.pick(surnames);
    const local = `${given}.${surname}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    const addresses: AddressInfo[] = [
      {
        $type: makeType('EmailAddressInfo'),
        Key: null,
        Href: null,
        IsPrivate: false,
        Type: 'Work',
        MailTo: `${local}${n}@example.com`,
      },
    ];
    if (this.random() < 0.7) {
      addresses.push({
        $type: makeType('PhoneInfo'),
        Key: null,
        Href: null,
        IsPrivate: this.random() < 0.3,
        Type: this.random() < 0.5 ? 'Mobile' : 'Work',
        Number: `+1 613 555 ${String(Math.floor(this.random() * 10000)).padStart(4, '0')}`,
      });
    }
    if (this.random() < 0.4) {
      const [city, province, fsa] = this.pick(cities);
      addresses.push({
        $type: makeType('MailingAddressInfo'),
        Key: null,
        Href: null,
        IsPrivate: true,
        Type: 'Home',
        Street: `${1 + Math.floor(this.random() * 899)} ${this.pick(streets)}`,
        City: city,
        Province: province,
        Country: 'Canada',
        PostalCode: `${fsa} ${Math.floor(this.random() * 10)}${'ABCEGHJKLMNPRSTVXY'[Math.floor(this.random() * 18)]}${Math.floor(this.random() * 10)}`,
      });
    }
    this.add(kind('person'), folderKey, {
      CommonName: `${given} ${surname}`,
      GivenName: given,
      Surname: surname,
      Addresses: addresses,
      Tags: ['staff'],
    });
  }
}
