/** The payment methods of the payment product (spec section 1: 16+, online and offline). */
export type PaymentGroup = 'cards' | 'wallets' | 'hongKong' | 'singapore';
export type PaymentChannel = 'online' | 'inStore' | 'both';

export interface PaymentMethod {
  key: string;
  group: PaymentGroup;
  channel: PaymentChannel;
}

export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  { key: 'visa', group: 'cards', channel: 'both' },
  { key: 'mastercard', group: 'cards', channel: 'both' },
  { key: 'unionpay', group: 'cards', channel: 'both' },
  { key: 'amex', group: 'cards', channel: 'both' },
  { key: 'jcb', group: 'cards', channel: 'both' },
  { key: 'diners', group: 'cards', channel: 'both' },
  { key: 'applePay', group: 'wallets', channel: 'both' },
  { key: 'googlePay', group: 'wallets', channel: 'both' },
  { key: 'samsungPay', group: 'wallets', channel: 'inStore' },
  { key: 'alipay', group: 'wallets', channel: 'both' },
  { key: 'wechatPay', group: 'wallets', channel: 'both' },
  { key: 'octopus', group: 'hongKong', channel: 'inStore' },
  { key: 'fps', group: 'hongKong', channel: 'both' },
  { key: 'payme', group: 'hongKong', channel: 'both' },
  { key: 'paynow', group: 'singapore', channel: 'both' },
  { key: 'nets', group: 'singapore', channel: 'inStore' },
  { key: 'grabpay', group: 'singapore', channel: 'both' },
];

export const PAYMENT_GROUPS: readonly PaymentGroup[] = ['cards', 'wallets', 'hongKong', 'singapore'];

/** HK$85 a month when no card transaction happens within 90 days of purchase; amounts in minor units. */
export const INACTIVITY_FEE = { currency: 'HKD', amount: 8500 } as const;
export const INACTIVITY_DAYS = 90;
/** Card and wallet sales are paid out two working days after the sale. */
export const SETTLEMENT_DAYS = 2;
