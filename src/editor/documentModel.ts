/**
 * What an object document holds besides its text, read with jsonc-parser
 * (VS Code's own JSON scanner): the references that are links, the sections
 * folded on open, and the outline. Plain TypeScript, offsets only: the
 * providers in this folder turn them into ranges.
 */
import { getNodeValue, Node, parseTree } from 'jsonc-parser';
import { l10n } from '../l10n';
import { rangeText } from '../model/priorities';
import { itemName } from '../model/fieldNames';

/** A reference in the document: an `Href`, or a key to be found (ObjectLinks with a null Href). */
export interface LinkSpan {
  offset: number;
  length: number;
  /** JSON path of the value, e.g. `ObjectLinks/0/Href`. */
  field: string;
  href?: string;
  key?: string;
  /** ObjectLinks: the CommonName and Relation the document gives for the target. */
  name?: string;
  relation?: string;
}

/** Sections that are the service's bookkeeping rather than the kind's own fields. */
const foldedFields = ['Links', 'ObjectLinks', 'Metadata', 'Monikers'] as const;

export interface Section {
  name: string;
  offset: number;
  /** End of the value (exclusive). */
  end: number;
  /** Offset of the value (where a fold starts to hide). */
  valueOffset: number;
  detail?: string;
  children?: Section[];
}

const str = (n: Node | undefined): string | undefined => (n?.type === 'string' ? (n.value as string) : undefined);

function prop(obj: Node | undefined, name: string): Node | undefined {
  const p = obj?.type === 'object' ? obj.children?.find((c) => c.children?.[0]?.value === name) : undefined;
  return p?.children?.[1];
}

function root(text: string): Node | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  return tree?.type === 'object' ? tree : undefined;
}

/** Href and InFolderHref; Href or LinkedObjectKey of each ObjectLinks item; the object's Links anchors. */
export function findLinks(text: string): LinkSpan[] {
  const doc = root(text);
  if (!doc) return [];
  const spans: LinkSpan[] = [];
  const at = (node: Node | undefined, field: string, extra: Partial<LinkSpan>) => {
    if (node?.type === 'string' && node.value) spans.push({ offset: node.offset + 1, length: Math.max(0, node.length - 2), field, ...extra });
  };
  const self = str(prop(doc, 'Href'));
  at(prop(doc, 'Href'), 'Href', { href: self });
  at(prop(doc, 'InFolderHref'), 'InFolderHref', { href: str(prop(doc, 'InFolderHref')) });
  prop(doc, 'ObjectLinks')?.children?.forEach((item, i) => {
    const href = str(prop(item, 'Href'));
    const key = str(prop(item, 'LinkedObjectKey'));
    const common = { name: str(prop(item, 'CommonName')), relation: str(prop(item, 'Relation')) };
    at(prop(item, 'Href'), `ObjectLinks/${i}/Href`, { href, key, ...common });
    // With a null Href the key is how the object is found (as the interface says).
    at(prop(item, 'LinkedObjectKey'), `ObjectLinks/${i}/LinkedObjectKey`, { href, key, ...common });
  });
  if (self) {
    prop(doc, 'Links')?.children?.forEach((item, i) => {
      const anchor = prop(prop(item, 'Anchor'), 'Href');
      const word = str(anchor);
      if (!word) return;
      // Anchors are relative: "notes" is <object Href>/notes.
      const href = word.startsWith('/') ? word : `${self.replace(/\/+$/, '')}/${word}`;
      at(anchor, `Links/${i}/Anchor/Href`, { href, relation: str(prop(item, 'Relation')), name: str(prop(prop(item, 'Anchor'), 'Text')) });
    });
  }
  return spans;
}

/** The link whose value holds `offset`, if any. */
export function linkAt(text: string, offset: number): LinkSpan | undefined {
  return findLinks(text).find((l) => offset >= l.offset && offset <= l.offset + l.length);
}

/** The top-level fields folded on open (those present and not empty). */
export function foldedSections(text: string): Section[] {
  return topLevel(text).filter((s) => (foldedFields as readonly string[]).includes(s.name) && s.children?.length);
}

/**
 * The outline: one entry per top-level field; array items below it, and the
 * reporting priorities named by their CommonName.
 */
export function topLevel(text: string): Section[] {
  const doc = root(text);
  if (!doc) return [];
  return (doc.children ?? []).flatMap((p) => {
    const [keyNode, value] = p.children ?? [];
    if (!keyNode || !value) return [];
    const name = String(keyNode.value);
    const section: Section = { name, offset: p.offset, end: p.offset + p.length, valueOffset: value.offset, detail: brief(value) };
    if (value.type === 'array') section.children = (value.children ?? []).map((item, i) => itemSection(name, item, i));
    return [section];
  });
}

function itemSection(field: string, item: Node, i: number): Section {
  const base = { offset: item.offset, end: item.offset + item.length, valueOffset: item.offset };
  // Named as every message names the item (model/fieldNames.ts).
  const label = itemName(field, getNodeValue(item));
  if (field === 'InputScannerReportingPriorities') {
    const n = (k: string) => prop(item, k)?.value as number | undefined;
    return {
      ...base,
      name: `${i + 1}. ${label ?? l10n.t('Reporting priority')}`,
      detail: l10n.t(
        '{0} · priority {1} · status {2}',
        rangeText(n('MinResistanceCode'), n('MaxResistanceCode')),
        n('Priority') ?? '?',
        n('StatusCode') ?? '?',
      ),
    };
  }
  return { ...base, name: label ? `${i + 1}. ${label}` : String(i + 1), detail: brief(item) };
}

function brief(value: Node): string | undefined {
  if (value.type === 'array') return value.children?.length === 1 ? l10n.t('1 item') : l10n.t('{0} items', value.children?.length ?? 0);
  if (value.type === 'object') return undefined;
  return value.value === null ? 'null' : String(value.value);
}
