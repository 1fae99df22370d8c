import type { Cell, Check, DynamicTarget, ScopeEntry } from './context.js';
import type { SubschemaCompiler } from './keyword.js';
import { compileNode } from './node.js';
import { getByPointer, parsePointer } from './pointer.js';
import type { Location, Resource, SchemaIndex } from './registry.js';
import type { JsonSchema } from './types.js';
import { isSchema } from './vocabulary.js';

const notLinked: Check = () => {
  throw new Error('mcpengine: $ref target used before it was compiled');
};

/**
 * Compiles one schema document into closures. Every location is compiled at most once; `$ref` targets are
 * compiled from a work list rather than recursively, so long reference chains cannot exhaust the stack.
 */
export class DocumentCompiler implements SubschemaCompiler {
  private readonly cells = new Map<string, Cell>();
  private readonly pending: string[] = [];
  private readonly scopes = new Map<Resource, ScopeEntry>();

  constructor(
    readonly index: SchemaIndex,
    readonly assertFormats: boolean,
  ) {}

  /** The compiled check for the subschema at `docPath` (a JSON Pointer into the document). */
  compileAt(docPath: string): Check {
    const before = this.cells.get(docPath);
    if (before?.ready) return before.fn;
    const fn = compileNode(this, this.location(docPath));
    // Compiling may have created the cell (a `$ref` back to this very subschema): fill it, never replace it.
    const cell = this.cells.get(docPath);
    if (cell === undefined) this.cells.set(docPath, { fn, ready: true });
    else {
      cell.fn = fn;
      cell.ready = true;
    }
    return fn;
  }

  /** A cell that will hold the check for `docPath` once `drain()` has run. */
  cell(docPath: string): Cell {
    let cell = this.cells.get(docPath);
    if (cell === undefined) {
      cell = { fn: notLinked, ready: false };
      this.cells.set(docPath, cell);
      this.pending.push(docPath);
    }
    return cell;
  }

  /** Compiles every `$ref` target requested so far, including those requested while doing so. */
  drain(): void {
    for (let docPath = this.pending.pop(); docPath !== undefined; docPath = this.pending.pop()) {
      this.compileAt(docPath);
    }
  }

  /** The dynamic-scope entry of a resource, mapping its `$dynamicAnchor`s to cells. */
  scopeEntry(resource: Resource): ScopeEntry {
    let entry = this.scopes.get(resource);
    if (entry === undefined) {
      const anchors = new Map<string, DynamicTarget>();
      const created: ScopeEntry = { dynamicAnchors: anchors };
      this.scopes.set(resource, created);
      for (const [name, docPath] of resource.dynamicAnchors) {
        const atRoot = this.location(docPath).isResourceRoot;
        anchors.set(name, { cell: this.cell(docPath), enter: atRoot ? null : created });
      }
      entry = created;
    }
    return entry;
  }

  /**
   * The location at `docPath`. A `$ref` may point somewhere the index did not visit (e.g. inside an unknown
   * keyword); such a location inherits base URI, dialect and resource from its nearest indexed ancestor.
   */
  location(docPath: string): Location {
    const known = this.index.locations.get(docPath);
    if (known !== undefined) return known;
    const schema = getByPointer(this.index.root, parsePointer(docPath) ?? []);
    let parent = docPath;
    let ancestor: Location | undefined;
    while (ancestor === undefined && parent !== '') {
      parent = parent.slice(0, parent.lastIndexOf('/'));
      ancestor = this.index.locations.get(parent);
    }
    if (ancestor === undefined || !isSchema(schema)) {
      throw new Error(`mcpengine: no schema at #${docPath}`);
    }
    const location: Location = {
      schema: schema as JsonSchema,
      docPath,
      baseUri: ancestor.baseUri,
      dialect: ancestor.dialect,
      resource: ancestor.resource,
      isResourceRoot: false,
    };
    this.index.locations.set(docPath, location);
    return location;
  }
}
