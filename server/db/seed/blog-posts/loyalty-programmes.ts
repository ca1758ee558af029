import type { SeedBlogPost } from '../blogs.ts';

export const loyaltyProgrammes: SeedBlogPost = {
  slug: 'loyalty-programmes-that-bring-customers-back',
  category: 'retail-tips',
  tags: ['loyalty', 'marketing', 'retail'],
  author: 'Karen Lee',
  publishedAt: '2026-09-02T10:00:00+08:00',
  coverImage: '/images/blog/loyalty.svg',
  coverAlt: {
    en: 'A stamp card with a heart next to a phone showing reward points',
    'zh-hk': '印花卡上的心形圖案，旁邊的手機顯示積分',
    'zh-cn': '集点卡上的爱心图案，旁边的手机显示积分',
  },
  title: {
    en: 'Loyalty programmes that bring customers back',
    'zh-hk': '令客人一再回頭的會員計劃',
    'zh-cn': '让顾客一再回头的会员计划',
  },
  summary: {
    en: 'A paper stamp card is easy to start and easy to lose. What a digital loyalty programme tied to your POS can do, which rewards work for restaurants and shops, and how to tell if it pays.',
    'zh-hk':
      '紙本印花卡容易推出，但亦容易遺失。看看與 POS 連接的電子會員計劃可以做到甚麼、哪些獎賞適合餐廳和零售店，以及如何判斷是否值得。',
    'zh-cn':
      '纸质集点卡容易推出，也容易丢失。看看与 POS 连接的电子会员计划能做到什么、哪些奖励适合餐厅和零售店，以及如何判断是否划算。',
  },
  body: {
    en: `<p>Winning a new customer costs far more than bringing back one you already have. Yet most small businesses know almost nothing about their regulars beyond a face at the counter. A loyalty programme connected to your POS changes that, and merchants who run one see around 27% more repeat customers.</p>
<h2>Why paper stamp cards fall short</h2>
<p>Stamp cards get forgotten at home, copied and thrown away. You cannot see who holds them, and you cannot send a message to a customer who has not visited for two months. A digital programme keeps the card in the customer's phone, identified by a mobile number, and every purchase is recorded at the till.</p>
<h2>Rewards that work</h2>
<ul><li><strong>Points per dollar</strong> suit shops with a wide range of prices.</li><li><strong>Visit-based rewards</strong> (the tenth coffee free) suit cafés and quick-service restaurants.</li><li><strong>Tiers</strong> with small perks, such as priority booking or a birthday dessert, make your best customers feel recognised.</li></ul>
<p>Keep the first reward within reach: a customer should earn something on the second or third visit, not the twentieth.</p>
<h2>Use the data, gently</h2>
<p>Because the POS knows what each member buys, you can invite lapsed customers back with an offer, tell regulars about a new dish they will like or thank them on their birthday. Ask for consent when members join, explain how you use their details in line with Hong Kong's PDPO or Singapore's PDPA, and keep messages infrequent.</p>
<h2>How to tell if it pays</h2>
<p>Compare members with other customers: how often they return, what they spend per visit and how many rewards they redeem. If members visit more often and the rewards cost less than the extra margin, the programme pays for itself.</p>`,
    'zh-hk': `<p>爭取一位新客人的成本，遠高於令舊客人再次光顧。不過大部分小商戶對熟客的認識，往往只限於櫃枱前的一張熟面孔。與 POS 連接的會員計劃可以改變這一點，推行會員計劃的商戶，回頭客平均增加約 27%。</p>
<h2>紙本印花卡的不足</h2>
<p>印花卡經常被遺留喺屋企、被人複製，最後被丟掉。你睇唔到邊個持有印花卡，亦無法聯絡兩個月冇再光顧的客人。電子會員計劃將會員卡放喺客人手機，以手機號碼識別，每次消費都會在收銀時自動記錄。</p>
<h2>有效的獎賞方式</h2>
<ul><li><strong>按消費金額儲分</strong>，適合貨品價錢差距大的零售店。</li><li><strong>按光顧次數獎賞</strong>（第十杯咖啡免費），適合咖啡店及快餐店。</li><li><strong>會員級別</strong>配合小小禮遇，例如優先訂座或生日甜品，令最忠實的客人感到被重視。</li></ul>
<p>第一份獎賞要容易達到：客人應該在第二、三次光顧就有收穫，而唔係要等到第二十次。</p>
<h2>善用數據，但要有分寸</h2>
<p>由於 POS 知道每位會員買過甚麼，你可以用優惠邀請久未光顧的客人回來、向熟客介紹佢會鍾意的新菜式，或者在生日時送上祝福。會員登記時要取得同意，並按香港《個人資料（私隱）條例》或新加坡 PDPA 說明資料用途，訊息亦唔好太頻密。</p>
<h2>點樣判斷值唔值得</h2>
<p>比較會員與其他客人：回頭次數、每次消費金額，以及兌換獎賞的數量。如果會員光顧得更密，而獎賞成本低於額外帶來的利潤，這個計劃就已經回本。</p>`,
    'zh-cn': `<p>争取一位新顾客的成本，远高于让老顾客再次光临。然而大多数小商户对熟客的了解，往往只停留在柜台前的一张熟面孔。与 POS 连接的会员计划可以改变这一点，推行会员计划的商户，回头客平均增加约 27%。</p>
<h2>纸质集点卡的不足</h2>
<p>集点卡经常被忘在家里、被人复制，最后被扔掉。你看不到谁持有集点卡，也无法联系两个月没有光顾的顾客。电子会员计划把会员卡放在顾客手机里，用手机号码识别，每次消费都会在收银时自动记录。</p>
<h2>有效的奖励方式</h2>
<ul><li><strong>按消费金额积分</strong>，适合商品价格跨度大的零售店。</li><li><strong>按光临次数奖励</strong>（第十杯咖啡免费），适合咖啡馆和快餐店。</li><li><strong>会员等级</strong>配合小小礼遇，例如优先订座或生日甜品，让最忠实的顾客感到被重视。</li></ul>
<p>第一份奖励要容易达到：顾客应该在第二、三次光临时就有收获，而不是要等到第二十次。</p>
<h2>善用数据，但要有分寸</h2>
<p>由于 POS 知道每位会员买过什么，你可以用优惠邀请久未光临的顾客回来、向熟客推荐他们会喜欢的新品，或者在生日时送上祝福。会员注册时要征得同意，并按新加坡《个人资料保护法》（PDPA）或香港相关条例说明数据用途，信息也不要发得太频繁。</p>
<h2>如何判断是否划算</h2>
<p>比较会员与其他顾客：回头次数、每次消费金额，以及兑换奖励的数量。如果会员光临得更频繁，而奖励成本低于额外带来的利润，这个计划就已经回本。</p>`,
  },
};
