import { DomainError } from '../shared/errors.ts';

/** The most members one bulk call by ids names. */
export const BULK_MAX = 100;

/** One member's outcome in a bulk call. */
export interface BulkItemResult {
  itemMetadata: {
    id: string;
    originalIndex: number;
    success: boolean;
    error?: { code: string; description: string; data?: Record<string, unknown> };
  };
}

/** One member of a bulk call: its action, and what became of it. */
export async function bulkItem(
  id: string,
  index: number,
  act: () => Promise<unknown>,
): Promise<BulkItemResult> {
  try {
    await act();
    return { itemMetadata: { id, originalIndex: index, success: true } };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const code = error.application?.code ?? error.kind;
    return {
      itemMetadata: {
        id,
        originalIndex: index,
        success: false,
        error: {
          code,
          description: error.application?.description ?? error.message,
          ...(error.application?.data ? { data: error.application.data } : {}),
        },
      },
    };
  }
}
