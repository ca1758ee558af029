import { z } from '../zod.ts';
import { STAFF_ROLES } from './types.ts';

/** Where staff are with a lead: not yet answered, answered, done with. */
export const FOLLOW_UPS = ['new', 'contacted', 'closed'] as const;

/**
 * Staff's follow-up of a lead (an enquiry, a contact form, a subscriber): written by editors and
 * admins only, never by the visitor who sent it (decision 035).
 */
export const followUpFields = {
  followUp: {
    kind: 'enum',
    enum: FOLLOW_UPS,
    writable: STAFF_ROLES,
    patchable: STAFF_ROLES,
    defaulted: true,
    filterable: true,
    sortable: true,
    listed: true,
    exported: true,
  },
  notes: {
    kind: 'string',
    schema: z.string().trim().max(5000),
    writable: STAFF_ROLES,
    patchable: STAFF_ROLES,
    exported: true,
    hints: { widget: 'textarea' },
  },
} as const;
