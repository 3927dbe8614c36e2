import Type from 'typebox';
import { Choice, NullableText } from '../http/responses-identity.ts';

/** `GET /api/cartwheel/mailbox`: the messages the platform sent or kept (SDK `MailboxMessage`). */
export const MailboxAnswer = Type.Object({
  messages: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      to: Type.String(),
      subject: Type.String(),
      text: Type.String(),
      // kept beside the text for mail readers that show it; not in the SDK's `MailboxMessage` yet
      html: Type.Optional(NullableText),
      status: Choice(['STORED', 'QUEUED', 'SENDING', 'SENT', 'FAILED']),
      createdDate: Type.String(),
      sentDate: NullableText,
    }),
  ),
});
