import type { SeedBlogPost } from '../blogs.ts';

export const acceptingPayments: SeedBlogPost = {
  slug: 'accepting-fps-paynow-octopus-alipay-wechat-pay',
  category: 'payments',
  tags: ['payments', 'fps', 'paynow', 'e-wallets'],
  author: 'Daniel Tan',
  publishedAt: '2026-07-18T10:00:00+08:00',
  coverImage: '/images/blog/accepting-payments.svg',
  coverAlt: {
    en: 'A payment terminal surrounded by a card, a phone wallet and a QR code',
    'zh-hk': '付款終端機旁邊有信用卡、手機錢包和二維碼',
    'zh-cn': '收款终端旁边有银行卡、手机钱包和二维码',
  },
  title: {
    en: 'Accepting FPS, PayNow, Octopus, Alipay and WeChat Pay',
    'zh-hk': '一部機收齊轉數快、PayNow、八達通、支付寶及微信支付',
    'zh-cn': '一台终端收齐转数快、PayNow、八达通、支付宝和微信支付',
  },
  summary: {
    en: 'Customers in Hong Kong and Singapore pay with cards, transit cards, bank transfers and e-wallets. How to accept them all without a drawer full of terminals, and what to check on fees and settlement.',
    'zh-hk':
      '香港和新加坡的客人會用信用卡、八達通、銀行轉賬和電子錢包付款。教你點樣一部機收齊，唔使成櫃桶終端機，以及收費和結算要留意甚麼。',
    'zh-cn':
      '香港和新加坡的顾客会用银行卡、交通卡、银行转账和电子钱包付款。教你如何一台终端全部收齐，不用一抽屉的机器，以及手续费和结算要注意什么。',
  },
  body: {
    en: `<p>A customer with a phone in hand and no wallet is normal in both Hong Kong and Singapore. If your counter only takes cash and one card brand, some of them will simply walk to the shop next door. The good news: one integrated terminal can now take almost everything.</p>
<h2>The methods your customers expect</h2>
<ul><li><strong>Hong Kong:</strong> Visa, Mastercard, UnionPay and American Express; Octopus; FPS (the Faster Payment System); Alipay HK and AlipayCN; WeChat Pay HK; PayMe.</li><li><strong>Singapore:</strong> cards and NETS; PayNow through SGQR; GrabPay, ShopeePay and other e-wallets; Alipay and WeChat Pay for visitors from mainland China.</li></ul>
<p>A modern payment service supports 16 or more methods, online and in the shop, so a customer can pay the same way at your counter and on your online shop.</p>
<h2>One terminal, one report</h2>
<p>When payments run through your POS, the amount is sent to the terminal automatically: no typing mistakes, no sale rung up twice. At closing, card, wallet and transfer totals appear in the same report as the cash, ready for your accountant.</p>
<h2>What to check on fees and settlement</h2>
<p>Compare the rate per method, not only the headline rate: wallets and local transfers are often cheaper than cards. Ask how fast money reaches your bank (T+2 settlement is common), whether refunds are free, and whether a fee applies when the terminal has no card transactions for a while.</p>
<h2>Make it obvious at the counter</h2>
<p>Display the accepted logos at the door and by the till, and keep one QR stand for FPS or PayNow at the counter. Train staff to refund through the POS rather than with cash, so every report still adds up.</p>`,
    'zh-hk': `<p>無論喺香港定新加坡，客人只帶手機、唔帶銀包已經好普遍。如果你的櫃枱只收現金同一種信用卡，部分客人會直接行去隔籬舖。好消息係：而家一部整合式終端機，差不多乜都收到。</p>
<h2>客人期望的付款方式</h2>
<ul><li><strong>香港：</strong>Visa、Mastercard、銀聯及美國運通；八達通；轉數快（FPS）；支付寶香港及支付寶內地版；微信支付香港；PayMe。</li><li><strong>新加坡：</strong>信用卡及 NETS；經 SGQR 的 PayNow；GrabPay、ShopeePay 等電子錢包；以及內地旅客常用的支付寶和微信支付。</li></ul>
<p>現代的收款服務支援 16 種以上付款方式，線上線下都適用，客人喺門市同網店都可以用同一種方式付款。</p>
<h2>一部終端機，一份報表</h2>
<p>付款經 POS 處理時，金額會自動傳送到終端機：唔會打錯數，亦唔會重複收款。收舖時，信用卡、電子錢包同轉賬的總數會同現金列喺同一份報表，可以直接交俾會計師。</p>
<h2>收費及結算要留意的地方</h2>
<p>比較每種付款方式的收費，而唔係只睇宣傳的最低收費：電子錢包同本地轉賬往往比信用卡便宜。問清楚款項幾時入到你的銀行戶口（T+2 結算好常見）、退款是否免費，以及終端機一段時間冇信用卡交易會否收費。</p>
<h2>喺櫃枱清楚展示</h2>
<p>在門口同收銀處貼出接受的付款標誌，並喺櫃枱放一個轉數快或 PayNow 的二維碼牌。培訓員工經 POS 辦理退款，而唔係直接畀現金，咁每份報表都會對得上。</p>`,
    'zh-cn': `<p>无论在香港还是新加坡，顾客只带手机、不带钱包已经很普遍。如果你的柜台只收现金和一种银行卡，部分顾客会直接走到隔壁店。好消息是：现在一台一体化终端几乎什么都能收。</p>
<h2>顾客期望的付款方式</h2>
<ul><li><strong>香港：</strong>Visa、Mastercard、银联和美国运通；八达通；转数快（FPS）；支付宝香港及支付宝内地版；微信支付香港；PayMe。</li><li><strong>新加坡：</strong>银行卡和 NETS；通过 SGQR 的 PayNow；GrabPay、ShopeePay 等电子钱包；以及中国内地游客常用的支付宝和微信支付。</li></ul>
<p>现代的收款服务支持 16 种以上付款方式，线上线下通用，顾客在门店和网店都能用同一种方式付款。</p>
<h2>一台终端，一份报表</h2>
<p>付款经 POS 处理时，金额会自动发送到终端：不会输错金额，也不会重复收款。打烊时，银行卡、电子钱包和转账的合计会和现金列在同一份报表里，可以直接交给会计。</p>
<h2>手续费和结算要注意什么</h2>
<p>比较每种付款方式的费率，而不只看宣传的最低费率：电子钱包和本地转账往往比银行卡便宜。问清楚款项多久到账（T+2 结算很常见）、退款是否免费，以及终端一段时间没有刷卡交易时是否收费。</p>
<h2>在柜台清楚展示</h2>
<p>在门口和收银台贴出可用的付款标志，并在柜台放一个 PayNow 或转数快的二维码牌。培训员工通过 POS 办理退款，而不是直接退现金，这样每份报表都能对得上。</p>`,
  },
};
