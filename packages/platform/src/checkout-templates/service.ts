import type { Kysely } from 'kysely';
import type { CatalogService } from '../catalog/service.ts';
import type { CheckoutService } from '../checkouts/service.ts';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { nowIso } from '../shared/clock.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { timeOrderedId } from '../shared/ids.ts';
import { idCursorPage } from '../shared/paging.ts';
import type { Principal } from '../shared/principal.ts';
import type { CheckoutTemplateRow } from './tables.ts';

export type TemplateStatus = 'ACTIVE' | 'INACTIVE';

/** A checkout template as the wire answers it (the hosted `CheckoutTemplate`, with its dates). */
export interface CheckoutTemplate {
  id: string;
  status: TemplateStatus;
  customization: {
    webClient: { disabledContinueShoppingButton?: boolean; disabledPolicyAgreementCheckbox?: boolean };
    lockedGiftCard?: boolean;
    lockedCoupon?: boolean;
    disabledManualPayment?: boolean;
  };
  lineItems: TemplateLine[];
  customLineItems: CustomTemplateLine[];
  couponCode?: string | null;
  customContentReference?: { appId: string; componentId?: string };
  externalReference?: { appId: string; resourceId?: string };
  createdDate: string;
  updatedDate: string;
}

type CreateFromTemplate = Parameters<CheckoutService['createFromTemplate']>[1];
export type TemplateLine = CreateFromTemplate['lineItems'][number];
export type CustomTemplateLine = CreateFromTemplate['customLineItems'][number];

/** What a caller gives: the template but its id and dates, every part optional. */
export type TemplateDraft = Partial<Omit<CheckoutTemplate, 'id' | 'createdDate' | 'updatedDate'>>;

/** What templates need of the other domains: whether a product is sold, and a checkout made of lines. */
export interface CheckoutTemplateDependencies {
  catalog: Pick<CatalogService, 'pricingFacts'>;
  checkouts: Pick<CheckoutService, 'createFromTemplate'>;
}

/**
 * Checkout templates (point 1): a merchant's lines, custom lines and coupon, from which a buy link
 * makes a checkout and sends the shopper to the hosted checkout page. Every change is announced
 * (point 4: created, updated, deleted, used). Business rules only; the routes translate.
 */
export class CheckoutTemplateService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: CheckoutTemplateDependencies,
  ) {}

  async create(draft: TemplateDraft): Promise<CheckoutTemplate> {
    await this.refuseUnsold(draft.lineItems ?? []);
    const now = nowIso();
    const template = templateOf(timeOrderedId(), draft, now, now);
    await inTransaction(this.db, async (trx) => {
      await trx.insertInto('checkout_templates').values(rowOf(template)).execute();
      await recordEvents(trx, [templateEvent('created', template)]);
    });
    return template;
  }

  async get(id: string): Promise<CheckoutTemplate> {
    const row = await this.db
      .selectFrom('checkout_templates')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('checkout template', id);
    return fromRow(row);
  }

  /** Replaces what the patch names; lines given replace the template's lines whole. */
  async update(id: string, patch: TemplateDraft): Promise<CheckoutTemplate> {
    if (patch.lineItems) await this.refuseUnsold(patch.lineItems);
    return inTransaction(this.db, async (trx) => {
      const row = await trx
        .selectFrom('checkout_templates')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) throw notFound('checkout template', id);
      const current = fromRow(row);
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const template = templateOf(id, { ...current, ...defined }, current.createdDate, nowIso());
      await trx
        .updateTable('checkout_templates')
        .set({ status: template.status, doc: rowOf(template).doc, updated_date: template.updatedDate })
        .where('id', '=', id)
        .execute();
      await recordEvents(trx, [templateEvent('updated', template)]);
      return template;
    });
  }

  async delete(id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const deleted = await trx.deleteFrom('checkout_templates').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('checkout template', id);
      await recordEvents(trx, [
        { entity: 'checkoutTemplate', slug: 'deleted', entityId: id, payload: { entityId: id } },
      ]);
    });
  }

  /** Templates oldest first, `limit` a page, after the cursor's id; optionally of one status. */
  async query(
    limit: number,
    cursor: string | null,
    status: TemplateStatus | null,
  ): Promise<{
    checkoutTemplates: CheckoutTemplate[];
    pagingMetadata: { count: number; cursors: { next: string | null }; hasNext: boolean };
  }> {
    const rows = await this.db
      .selectFrom('checkout_templates')
      .selectAll()
      .$if(status !== null, (qb) => qb.where('status', '=', status as string))
      .$if(cursor !== null, (qb) => qb.where('id', '>', cursor as string))
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    const { items, metadata } = idCursorPage(rows, limit, fromRow);
    return { checkoutTemplates: items, pagingMetadata: metadata };
  }

  /**
   * "Use": a checkout of the template's lines, custom lines and coupon, owned by the caller, and the
   * hosted checkout page's address for it. An INACTIVE template makes none; a product hidden since the
   * template was made is refused as at its creation.
   */
  async use(id: string, principal: Principal): Promise<{ checkoutId: string; checkoutUrl: string }> {
    const template = await this.get(id);
    if (template.status !== 'ACTIVE') {
      throw applicationError(
        'FAILED_PRECONDITION',
        'CHECKOUT_TEMPLATE_INACTIVE',
        'this checkout template is INACTIVE: it makes no checkout',
        { checkoutTemplateId: id },
      );
    }
    await this.refuseUnsold(template.lineItems);
    const made = await this.deps.checkouts.createFromTemplate(principal, {
      lineItems: template.lineItems,
      customLineItems: template.customLineItems,
      couponCode: template.couponCode ?? null,
    });
    await recordEvents(this.db, [
      {
        entity: 'checkoutTemplate',
        slug: 'used',
        entityId: id,
        payload: { checkoutTemplate: template, checkout: { id: made.checkoutId } },
      },
    ]);
    return made;
  }

  /** A template sells only what the storefront shows: a hidden or unknown product is a field violation. */
  private async refuseUnsold(lines: readonly TemplateLine[]): Promise<void> {
    if (lines.length === 0) return;
    const ids = lines.map((line) => line.catalogReference?.catalogItemId ?? '');
    const facts = await this.deps.catalog.pricingFacts(ids);
    const violations = lines.flatMap((_, index) => {
      const fact = facts.get(ids[index] ?? '');
      const field = `checkoutTemplate.lineItems[${index}].catalogReference.catalogItemId`;
      if (!fact) return [violation(field, 'names no product of the store')];
      if (!fact.visible) return [violation(field, 'names a hidden product: the store does not sell it')];
      return [];
    });
    if (violations.length > 0) throw invalidArgument(violations);
  }
}

function templateOf(
  id: string,
  draft: TemplateDraft,
  createdDate: string,
  updatedDate: string,
): CheckoutTemplate {
  const customization = draft.customization ?? { webClient: {} };
  return {
    id,
    status: draft.status ?? 'ACTIVE',
    customization: { ...customization, webClient: customization.webClient ?? {} },
    lineItems: draft.lineItems ?? [],
    customLineItems: draft.customLineItems ?? [],
    ...(draft.couponCode !== undefined ? { couponCode: draft.couponCode } : {}),
    ...(draft.customContentReference ? { customContentReference: draft.customContentReference } : {}),
    ...(draft.externalReference ? { externalReference: draft.externalReference } : {}),
    createdDate,
    updatedDate,
  };
}

function rowOf(template: CheckoutTemplate): CheckoutTemplateRow {
  const { id, status, createdDate, updatedDate, ...doc } = template;
  return { id, status, doc: JSON.stringify(doc), created_date: createdDate, updated_date: updatedDate };
}

function fromRow(row: CheckoutTemplateRow): CheckoutTemplate {
  return {
    id: row.id,
    status: row.status as TemplateStatus,
    ...(JSON.parse(row.doc) as Omit<CheckoutTemplate, 'id' | 'status' | 'createdDate' | 'updatedDate'>),
    createdDate: row.created_date,
    updatedDate: row.updated_date,
  };
}

function templateEvent(slug: 'created' | 'updated', template: CheckoutTemplate): DomainEvent {
  return { entity: 'checkoutTemplate', slug, entityId: template.id, payload: { entity: template } };
}
