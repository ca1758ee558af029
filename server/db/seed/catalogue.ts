/**
 * Tillpoint seed catalogue: industries, add-on modules and the industry pricing
 * plans (app templates) built from them.
 *
 * Plain typed data, no I/O. All money is an integer in HKD minor units (cents):
 * HK$688 is 68800.
 */
import type { z } from '../../../domain/zod.ts';
import type {
  appTemplates as appTemplateDefinition,
  templateModuleSchema,
} from '../../../domain/entities/app-templates.ts';
import type { industries as industryDefinition, industryItemSchema } from '../../../domain/entities/industries.ts';
import type { modules as moduleDefinition } from '../../../domain/entities/modules.ts';
import type { CreateOf, RecordOf } from '../../../domain/entities/types.ts';
import type { I18nText } from '../../../domain/locales.ts';

/** The named fields of a write, each given and none empty: the seed writes complete rows. */
type Complete<T, K extends keyof T> = { [P in K]-?: NonNullable<T[P]> };

/** A key feature shown on an industry page; `icon` is a short kebab-case name ('table-ordering'). */
export type SeedIndustryItem = Complete<z.input<typeof industryItemSchema>, 'name' | 'description' | 'icon'>;

/** An industry. Order 0 maps to the restaurant page; any other order to the store page. */
export type SeedIndustry = Complete<
  CreateOf<typeof industryDefinition>,
  'key' | 'name' | 'description' | 'order' | 'major'
> & {
  items: SeedIndustryItem[];
};

export type ModuleBilling = RecordOf<typeof moduleDefinition>['billing'];

/**
 * An add-on module. A `counter` module is priced per unit (screens, kiosks): the price is
 * multiplied by the count. `monthPrice` is per billing period (month, year, or once, per
 * `billing`) in HKD cents; a module not `released` shows as "coming later".
 */
export type SeedModule = Complete<
  CreateOf<typeof moduleDefinition>,
  'key' | 'name' | 'shortDesc' | 'description' | 'counter' | 'monthPrice' | 'billing' | 'released' | 'order'
>;

/** A module a plan includes, by the module's key; `monthPrice` is its unit price in HKD cents. */
export type SeedTemplateModule = Omit<z.output<typeof templateModuleSchema>, 'id'> & { moduleKey: string };

export type PlanType = RecordOf<typeof appTemplateDefinition>['type'];

/**
 * A plan template, naming its industry and modules by key. `monthPrice` is the base price in HKD
 * cents per month (0 for enterprise: negotiable); `contractMonths` 0 means no contract.
 */
export type SeedAppTemplate = Complete<
  CreateOf<typeof appTemplateDefinition>,
  'key' | 'name' | 'description' | 'type' | 'monthPrice' | 'prepayMonth' | 'contractMonths' | 'showOnHome'
> & { industryKey: string; modules: SeedTemplateModule[] };

// ---------------------------------------------------------------------------
// Industries
// ---------------------------------------------------------------------------

export const industries: SeedIndustry[] = [
  {
    key: 'restaurant',
    order: 0,
    major: true,
    name: { en: 'Restaurants', 'zh-hk': '餐廳', 'zh-cn': '餐厅' },
    description: {
      en: 'From cha chaan tengs to fine dining, run the floor, the kitchen and takeaway from one POS.',
      'zh-hk': '由茶餐廳到高級食府，一套收銀系統同時管理樓面、廚房及外賣。',
      'zh-cn': '从茶餐厅到高级餐厅，一套收银系统统管前厅、厨房和外卖。',
    },
    items: [
      {
        icon: 'table-ordering',
        name: { en: 'Table & QR Ordering', 'zh-hk': '枱號及掃碼點餐', 'zh-cn': '桌台与扫码点餐' },
        description: {
          en: 'Guests scan the table QR code to order and pay, and every order lands in the kitchen instantly.',
          'zh-hk': '客人掃描枱上的 QR Code 即可點餐付款，訂單即時傳送到廚房。',
          'zh-cn': '顾客扫描桌上的二维码即可点餐付款，订单即时传送至厨房。',
        },
      },
      {
        icon: 'kitchen-display',
        name: { en: 'Kitchen Display', 'zh-hk': '廚房顯示系統', 'zh-cn': '厨房显示系统' },
        description: {
          en: 'Replace paper tickets with screens that sort orders by station and flag any dish running late.',
          'zh-hk': '以屏幕取代紙單，按工作站分派訂單，逾時菜式一目了然。',
          'zh-cn': '用屏幕取代纸质小票，按档口分派订单，超时菜品一目了然。',
        },
      },
      {
        icon: 'split-bill',
        name: { en: 'Split Bills, Any Payment', 'zh-hk': '靈活分單及付款', 'zh-cn': '灵活拆单与支付' },
        description: {
          en: 'Split by dish or by head, and take cards, Octopus, FPS, PayNow, Alipay and WeChat Pay at the table.',
          'zh-hk': '按菜式或人數分單，信用卡、八達通、轉數快、支付寶及微信支付全部接受。',
          'zh-cn': '按菜品或人数拆单，支持银行卡、PayNow、NETS、支付宝和微信支付。',
        },
      },
      {
        icon: 'delivery',
        name: { en: 'Takeaway & Delivery', 'zh-hk': '外賣及送餐', 'zh-cn': '外卖与配送' },
        description: {
          en: 'Phone, online and delivery-platform orders share one queue, so nothing slips through at peak hours.',
          'zh-hk': '電話、網上及外賣平台訂單集中處理，繁忙時段亦不怕漏單。',
          'zh-cn': '电话、线上及外卖平台订单统一处理，高峰时段也不漏单。',
        },
      },
    ],
  },
  {
    key: 'retail',
    order: 1,
    major: true,
    name: { en: 'Retail Stores', 'zh-hk': '零售店舖', 'zh-cn': '零售门店' },
    description: {
      en: 'Fashion, gifts, electronics or convenience stores: check out faster and always know what is on the shelf.',
      'zh-hk': '時裝、精品、電器以至便利店，收銀快人一步，貨架存貨隨時掌握。',
      'zh-cn': '服装、礼品、电器乃至便利店，收银更快，货架库存随时掌握。',
    },
    items: [
      {
        icon: 'inventory',
        name: { en: 'Live Inventory', 'zh-hk': '實時庫存管理', 'zh-cn': '实时库存管理' },
        description: {
          en: 'Stock updates with every sale, and low-stock alerts tell you what to reorder before it runs out.',
          'zh-hk': '每宗交易即時更新存貨，低庫存自動提醒，及早補貨不斷貨。',
          'zh-cn': '每笔交易实时更新库存，低库存自动提醒，及时补货不断货。',
        },
      },
      {
        icon: 'barcode',
        name: { en: 'Barcode Checkout', 'zh-hk': '條碼快速收銀', 'zh-cn': '条码快速收银' },
        description: {
          en: 'Scan, discount and take payment in seconds, with sizes and colours managed as variants.',
          'zh-hk': '掃碼、折扣、收款數秒完成，尺碼及顏色款式一併管理。',
          'zh-cn': '扫码、折扣、收款几秒完成，尺码和颜色规格一并管理。',
        },
      },
      {
        icon: 'loyalty',
        name: { en: 'Members & Points', 'zh-hk': '會員積分', 'zh-cn': '会员积分' },
        description: {
          en: 'Reward repeat shoppers with points, tiers and birthday offers that bring them back.',
          'zh-hk': '以積分、會員等級及生日優惠獎勵熟客，吸引顧客再次光顧。',
          'zh-cn': '用积分、会员等级和生日优惠回馈老顾客，让他们一再回购。',
        },
      },
      {
        icon: 'reports',
        name: { en: 'Sales Reports', 'zh-hk': '銷售報表', 'zh-cn': '销售报表' },
        description: {
          en: 'See best sellers, slow movers and staff performance by day, week or store.',
          'zh-hk': '按日、按週或按分店查看熱賣貨品、滯銷貨品及員工表現。',
          'zh-cn': '按日、按周或按门店查看畅销品、滞销品和员工业绩。',
        },
      },
    ],
  },
  {
    key: 'cafe-bakery',
    order: 2,
    major: false,
    name: { en: 'Cafés & Bakeries', 'zh-hk': '咖啡店及餅店', 'zh-cn': '咖啡馆与烘焙店' },
    description: {
      en: 'Keep the morning queue moving, get every custom drink right and take cake pre-orders with ease.',
      'zh-hk': '早市人龍快速消化，走甜少冰等要求準確無誤，蛋糕預訂亦輕鬆處理。',
      'zh-cn': '早高峰排队快速消化，少糖去冰等要求准确无误，蛋糕预订轻松搞定。',
    },
    items: [
      {
        icon: 'quick-checkout',
        name: { en: 'Quick Counter Checkout', 'zh-hk': '櫃台快速收銀', 'zh-cn': '柜台快速收银' },
        description: {
          en: 'One-tap favourites and preset combos keep each order to a few seconds.',
          'zh-hk': '常用品項一按即選，套餐組合預先設定，每單只需數秒。',
          'zh-cn': '常用品项一键选择，套餐组合预先设定，每单只需几秒。',
        },
      },
      {
        icon: 'modifiers',
        name: { en: 'Drink Options', 'zh-hk': '飲品自選配搭', 'zh-cn': '饮品自选配置' },
        description: {
          en: 'Oat milk, extra shot or less ice: options print clearly on the cup label so baristas get it right.',
          'zh-hk': '燕麥奶、加濃、少冰，選項清楚印在杯貼上，咖啡師一看便知。',
          'zh-cn': '燕麦奶、加浓、少冰，选项清晰打印在杯贴上，咖啡师一看就懂。',
        },
      },
      {
        icon: 'pre-order',
        name: { en: 'Cake Pre-orders', 'zh-hk': '蛋糕預訂', 'zh-cn': '蛋糕预订' },
        description: {
          en: 'Take deposits, pickup times and custom messages for celebration cakes, online or at the counter.',
          'zh-hk': '網上或門市均可接受蛋糕預訂，訂金、取貨時間及祝福字句一併記錄。',
          'zh-cn': '线上或门店均可接受蛋糕预订，定金、取货时间和祝福语一并记录。',
        },
      },
      {
        icon: 'stamp-card',
        name: { en: 'Digital Stamp Cards', 'zh-hk': '電子印花卡', 'zh-cn': '电子集点卡' },
        description: {
          en: 'Swap paper stamp cards for digital ones that customers never lose and you can actually measure.',
          'zh-hk': '以電子印花卡取代紙卡，顧客不怕遺失，成效亦有數據可查。',
          'zh-cn': '用电子集点卡取代纸卡，顾客不怕丢失，效果也有数据可查。',
        },
      },
    ],
  },
  {
    key: 'beauty-wellness',
    order: 3,
    major: true,
    name: { en: 'Beauty & Wellness', 'zh-hk': '美容及保健', 'zh-cn': '美容养生' },
    description: {
      en: 'Salons, spas, nail bars and beauty clinics: fill the diary, sell treatment packages and keep clients coming back.',
      'zh-hk': '髮型屋、水療中心、美甲店及美容院適用，預約排期、療程套票及熟客管理一站式處理。',
      'zh-cn': '适用于美发店、水疗中心、美甲店和美容院，预约排期、疗程套餐和老客管理一站式搞定。',
    },
    items: [
      {
        icon: 'calendar',
        name: { en: 'Online Booking', 'zh-hk': '網上預約', 'zh-cn': '在线预约' },
        description: {
          en: 'Clients book around the clock, and automatic reminders cut no-shows.',
          'zh-hk': '客人全天候自助預約，自動提示減少失約。',
          'zh-cn': '顾客全天候自助预约，自动提醒减少爽约。',
        },
      },
      {
        icon: 'package',
        name: { en: 'Treatment Packages', 'zh-hk': '療程套票', 'zh-cn': '疗程套餐' },
        description: {
          en: 'Sell prepaid packages and deduct each session at checkout, with the balance always on record.',
          'zh-hk': '出售預付療程套票，結賬時自動扣減，剩餘次數清楚記錄。',
          'zh-cn': '销售预付疗程套餐，结账时自动扣次，剩余次数清晰记录。',
        },
      },
      {
        icon: 'commission',
        name: { en: 'Staff Commission', 'zh-hk': '員工佣金計算', 'zh-cn': '员工提成计算' },
        description: {
          en: 'Commission on services and retail products is worked out automatically, so payday takes minutes.',
          'zh-hk': '服務及產品佣金自動計算，出糧前對數只需數分鐘。',
          'zh-cn': '服务和产品提成自动计算，发薪前核对只需几分钟。',
        },
      },
      {
        icon: 'client-profile',
        name: { en: 'Client Profiles', 'zh-hk': '客戶檔案', 'zh-cn': '客户档案' },
        description: {
          en: 'Keep treatment history, preferences and allergies on file for a more personal visit every time.',
          'zh-hk': '記錄療程紀錄、喜好及過敏資料，每次服務都更貼心。',
          'zh-cn': '记录疗程历史、偏好和过敏信息，每次服务都更贴心。',
        },
      },
    ],
  },
  {
    key: 'education',
    order: 4,
    major: true,
    name: { en: 'Education Centres', 'zh-hk': '教育中心', 'zh-cn': '教育培训中心' },
    description: {
      en: 'Tutoring, music and language schools: collect fees, manage classes and sell materials without the spreadsheets.',
      'zh-hk': '補習社、音樂及語言學校適用，學費收款、課堂管理及教材銷售，從此告別試算表。',
      'zh-cn': '适用于补习中心、音乐及语言学校，学费收款、课程管理和教材销售，从此告别电子表格。',
    },
    items: [
      {
        icon: 'enrolment',
        name: { en: 'Course Enrolment', 'zh-hk': '課程報名', 'zh-cn': '课程报名' },
        description: {
          en: 'Parents enrol and pay online or at the front desk, and class lists update themselves.',
          'zh-hk': '家長可於網上或櫃台報名繳費，班級名單自動更新。',
          'zh-cn': '家长可在线或在前台报名缴费，班级名单自动更新。',
        },
      },
      {
        icon: 'attendance',
        name: { en: 'Attendance Tracking', 'zh-hk': '出席記錄', 'zh-cn': '考勤记录' },
        description: {
          en: 'Students check in with a QR code, and absences and make-up lessons are clear at a glance.',
          'zh-hk': '學生掃碼簽到，缺席及補堂安排一目了然。',
          'zh-cn': '学生扫码签到，缺勤和补课安排一目了然。',
        },
      },
      {
        icon: 'invoice',
        name: { en: 'Tuition Invoicing', 'zh-hk': '學費單據', 'zh-cn': '学费账单' },
        description: {
          en: 'Issue monthly tuition invoices and send payment reminders automatically.',
          'zh-hk': '每月自動發出學費單，並按時發送繳費提示。',
          'zh-cn': '每月自动生成学费账单，并按时发送缴费提醒。',
        },
      },
      {
        icon: 'book',
        name: { en: 'Books & Materials', 'zh-hk': '教材銷售', 'zh-cn': '教材销售' },
        description: {
          en: 'Sell textbooks, stationery and exam packs at the counter, with stock tracked alongside.',
          'zh-hk': '櫃台出售課本、文具及試卷套裝，庫存同步管理。',
          'zh-cn': '前台销售课本、文具和试卷套装，库存同步管理。',
        },
      },
    ],
  },
  {
    key: 'online-store',
    order: 5,
    major: true,
    name: { en: 'Online Stores', 'zh-hk': '網店', 'zh-cn': '网店' },
    description: {
      en: 'Sell on your own website and social channels, with stock, orders and shipping in step with your shop counter.',
      'zh-hk': '自設網店及社交平台同步銷售，存貨、訂單及送貨與門市無縫連接。',
      'zh-cn': '自建网店与社交平台同步销售，库存、订单和发货与门店无缝衔接。',
    },
    items: [
      {
        icon: 'online-store',
        name: { en: 'Branded Web Shop', 'zh-hk': '品牌網店', 'zh-cn': '品牌网店' },
        description: {
          en: 'Launch a mobile-friendly shop with your logo, products and payment methods in an afternoon.',
          'zh-hk': '一個下午即可開設手機友善的品牌網店，產品及付款方式一應俱全。',
          'zh-cn': '一个下午即可开设适配手机的品牌网店，商品和支付方式一应俱全。',
        },
      },
      {
        icon: 'sync',
        name: { en: 'One Shared Stock', 'zh-hk': '線上線下庫存同步', 'zh-cn': '线上线下库存同步' },
        description: {
          en: 'Online and in-store sales draw from the same stock, so you never sell what you do not have.',
          'zh-hk': '網店與門市共用同一庫存，不怕超賣。',
          'zh-cn': '网店与门店共用同一库存，不怕超卖。',
        },
      },
      {
        icon: 'shipping',
        name: { en: 'Order Fulfilment', 'zh-hk': '訂單出貨', 'zh-cn': '订单发货' },
        description: {
          en: 'Print picking lists and shipping labels in bulk, and keep buyers updated on every parcel.',
          'zh-hk': '批量列印執貨單及運單，並自動通知買家物流進度。',
          'zh-cn': '批量打印拣货单和快递面单，并自动通知买家物流进度。',
        },
      },
      {
        icon: 'coupon',
        name: { en: 'Promo Codes', 'zh-hk': '優惠碼', 'zh-cn': '优惠码' },
        description: {
          en: 'Set up flash sales, free-shipping thresholds and discount codes in a few clicks.',
          'zh-hk': '限時優惠、滿額免運費及優惠碼，幾下點擊即可設定。',
          'zh-cn': '限时特卖、满额免运费和优惠码，点几下即可设置。',
        },
      },
    ],
  },
  {
    key: 'chain-franchise',
    order: 6,
    major: true,
    name: { en: 'Chains & Franchises', 'zh-hk': '連鎖及加盟店', 'zh-cn': '连锁与加盟' },
    description: {
      en: 'Run 2 stores or 200 from one head office: the same products, the same prices, one set of numbers.',
      'zh-hk': '無論兩間分店還是二百間，總部統一管理產品、價格及營運數據。',
      'zh-cn': '无论两家门店还是两百家，总部统一管理商品、价格和经营数据。',
    },
    items: [
      {
        icon: 'central-control',
        name: { en: 'Central Products & Pricing', 'zh-hk': '總部統一定價', 'zh-cn': '总部统一定价' },
        description: {
          en: 'Push product and price changes to every branch at once, with local exceptions where you need them.',
          'zh-hk': '一次過將產品及價格更新推送至所有分店，個別分店亦可靈活調整。',
          'zh-cn': '一次性将商品和价格更新推送至所有门店，个别门店也可灵活调整。',
        },
      },
      {
        icon: 'dashboard',
        name: { en: 'Multi-store Dashboard', 'zh-hk': '多店數據總覽', 'zh-cn': '多店数据总览' },
        description: {
          en: 'Compare sales, margins and staff costs across branches in real time.',
          'zh-hk': '實時比較各分店的營業額、毛利及人手成本。',
          'zh-cn': '实时对比各门店的营业额、毛利和人力成本。',
        },
      },
      {
        icon: 'purchasing',
        name: { en: 'Central Purchasing', 'zh-hk': '中央採購', 'zh-cn': '中央采购' },
        description: {
          en: 'Combine branch orders into one purchase order and transfer stock between stores.',
          'zh-hk': '整合各分店訂貨需求統一採購，並可於分店之間調撥存貨。',
          'zh-cn': '整合各门店订货需求统一采购，并可在门店之间调拨库存。',
        },
      },
      {
        icon: 'members',
        name: { en: 'Shared Membership', 'zh-hk': '跨店會員通用', 'zh-cn': '跨店会员通用' },
        description: {
          en: 'Members earn and redeem points at any branch, while each franchisee sees only its own data.',
          'zh-hk': '會員可於任何分店賺取及兌換積分，加盟商只能查閱自己的數據。',
          'zh-cn': '会员可在任意门店累积和兑换积分，加盟商只能查看自己的数据。',
        },
      },
    ],
  },
];

// ---------------------------------------------------------------------------
// Add-on modules
// ---------------------------------------------------------------------------

export const modules: SeedModule[] = [
  {
    key: 'kds',
    order: 0,
    counter: true,
    monthPrice: 18800,
    billing: 'monthly',
    released: true,
    name: { en: 'Kitchen Display System', 'zh-hk': '廚房顯示系統', 'zh-cn': '厨房显示系统' },
    shortDesc: {
      en: 'Paperless kitchen orders, by station',
      'zh-hk': '無紙化廚房出單，按工作站分派',
      'zh-cn': '无纸化厨房出单，按档口分派',
    },
    description: {
      en: 'Orders appear on kitchen screens the moment they are placed, sorted by station with prep timers and one-tap completion. Priced per screen.',
      'zh-hk': '客人一下單，訂單即時顯示於廚房屏幕，按工作站分類，附備餐計時及一按完成功能。按屏幕數量收費。',
      'zh-cn': '顾客一下单，订单即时显示在厨房屏幕上，按档口分类，附备餐计时和一键完成功能。按屏幕数量收费。',
    },
  },
  {
    key: 'ods',
    order: 1,
    counter: true,
    monthPrice: 12800,
    billing: 'monthly',
    released: true,
    name: { en: 'Order Display System', 'zh-hk': '訂單顯示系統', 'zh-cn': '订单显示系统' },
    shortDesc: {
      en: 'Order-status screen for customers',
      'zh-hk': '顧客取餐叫號屏',
      'zh-cn': '顾客取餐叫号屏',
    },
    description: {
      en: 'A customer-facing screen shows which orders are being prepared and which are ready to collect, so staff stop calling out numbers. Priced per screen.',
      'zh-hk': '面向顧客的屏幕顯示製作中及可取餐的訂單，店員毋須再大聲叫號。按屏幕數量收費。',
      'zh-cn': '面向顾客的屏幕显示制作中和可取餐的订单，店员无需再大声叫号。按屏幕数量收费。',
    },
  },
  {
    key: 'qr-self-order',
    order: 2,
    counter: false,
    monthPrice: 38800,
    billing: 'monthly',
    released: true,
    name: { en: 'QR Self-Ordering', 'zh-hk': '掃碼自助點餐', 'zh-cn': '扫码自助点餐' },
    shortDesc: {
      en: 'Guests order and pay from their phones',
      'zh-hk': '客人用手機點餐付款',
      'zh-cn': '顾客用手机点餐付款',
    },
    description: {
      en: 'Each table gets its own QR code, so guests browse a photo menu, add extras and pay without waiting for staff. Fewer order mistakes, faster table turns.',
      'zh-hk': '每張枱設有專屬 QR Code，客人瀏覽圖片餐牌、加配及付款，毋須等候店員。落單更準確，翻枱更快。',
      'zh-cn': '每张桌台配有专属二维码，顾客浏览图片菜单、加选配料并直接付款，无需等待店员。下单更准确，翻台更快。',
    },
  },
  {
    key: 'kiosk-self-order',
    order: 3,
    counter: true,
    monthPrice: 58800,
    billing: 'monthly',
    released: true,
    name: { en: 'Self-Order Kiosk', 'zh-hk': '自助點餐機', 'zh-cn': '自助点餐机' },
    shortDesc: {
      en: 'Touchscreen ordering and payment',
      'zh-hk': '觸控屏自助點單及付款',
      'zh-cn': '触屏自助下单及付款',
    },
    description: {
      en: 'A touchscreen kiosk takes orders and card or e-wallet payments, suggests add-ons and sends orders straight to the kitchen or counter. Priced per kiosk.',
      'zh-hk': '觸控屏自助機接受信用卡及電子錢包付款，自動推介加購，訂單直送廚房或櫃台。按機數收費。',
      'zh-cn': '触屏自助机支持银行卡和电子钱包付款，自动推荐加购，订单直达厨房或柜台。按台数收费。',
    },
  },
  {
    key: 'online-shop',
    order: 4,
    counter: false,
    monthPrice: 48800,
    billing: 'monthly',
    released: true,
    name: { en: 'Online Shop', 'zh-hk': '網上商店', 'zh-cn': '线上商城' },
    shortDesc: {
      en: 'Your own web shop, synced with your POS',
      'zh-hk': '自家網店，與收銀系統同步',
      'zh-cn': '自有网店，与收银系统同步',
    },
    description: {
      en: 'Sell products, gift vouchers and pre-orders on a branded web shop that shares stock, members and reports with your POS.',
      'zh-hk': '透過品牌網店出售產品、禮券及預訂，庫存、會員及報表與收銀系統共用。',
      'zh-cn': '通过品牌网店销售商品、礼券和预订，库存、会员和报表与收银系统共享。',
    },
  },
  {
    key: 'purchasing',
    order: 5,
    counter: false,
    monthPrice: 380000,
    billing: 'one_time',
    released: true,
    name: { en: 'Purchasing Management', 'zh-hk': '採購管理', 'zh-cn': '采购管理' },
    shortDesc: {
      en: 'Supplier orders and goods receiving',
      'zh-hk': '供應商訂貨及收貨管理',
      'zh-cn': '供应商订货与收货管理',
    },
    description: {
      en: 'Raise purchase orders from low-stock alerts, check deliveries against them and track supplier costs. One-time setup fee, no monthly charge.',
      'zh-hk': '根據低庫存提示開立採購單，收貨時逐項核對，供應商成本清楚追蹤。只收一次性設定費，毋須月費。',
      'zh-cn': '根据低库存提醒生成采购单，收货时逐项核对，供应商成本清晰可查。只收一次性开通费，无月费。',
    },
  },
  {
    key: 'warranty-registration',
    order: 6,
    counter: false,
    monthPrice: 238800,
    billing: 'yearly',
    released: false,
    name: { en: 'Warranty Registration', 'zh-hk': '保養登記', 'zh-cn': '保修登记' },
    shortDesc: {
      en: 'Digital warranties for what you sell',
      'zh-hk': '電子保養登記',
      'zh-cn': '电子保修登记',
    },
    description: {
      en: 'Customers register their purchase by scanning the receipt, and you can look up any warranty by serial number or phone number. Billed yearly.',
      'zh-hk': '顧客掃描收據即可登記保養，店舖可憑序號或電話號碼查閱保養紀錄。按年收費。',
      'zh-cn': '顾客扫描小票即可登记保修，门店可凭序列号或手机号查询保修记录。按年收费。',
    },
  },
  {
    key: 'logistics',
    order: 7,
    counter: false,
    monthPrice: 26800,
    billing: 'monthly',
    released: false,
    name: { en: 'Logistics Integration', 'zh-hk': '物流整合', 'zh-cn': '物流对接' },
    shortDesc: {
      en: 'Connect couriers and print labels',
      'zh-hk': '連接速遞公司，一鍵列印運單',
      'zh-cn': '对接快递公司，一键打印面单',
    },
    description: {
      en: 'Connect SF Express, Ninja Van and other couriers to book pickups, print labels and track parcels from your orders screen.',
      'zh-hk': '連接順豐速運、Ninja Van 等物流商，在訂單頁面直接預約收件、列印運單及追蹤包裹。',
      'zh-cn': '对接顺丰速运、Ninja Van 等物流商，在订单页面直接预约揽件、打印面单并追踪包裹。',
    },
  },
  {
    key: 'loyalty',
    order: 8,
    counter: false,
    monthPrice: 32800,
    billing: 'monthly',
    released: true,
    name: { en: 'Loyalty Programme', 'zh-hk': '會員積分計劃', 'zh-cn': '会员积分计划' },
    shortDesc: {
      en: 'Points, tiers and member offers',
      'zh-hk': '積分、會員等級及專屬優惠',
      'zh-cn': '积分、会员等级和专属优惠',
    },
    description: {
      en: 'Turn first-time visitors into regulars with points, stored value, member tiers and targeted coupons that work in store and online.',
      'zh-hk': '透過積分、儲值、會員等級及精準優惠券，將新客變熟客，門市及網店通用。',
      'zh-cn': '通过积分、储值、会员等级和精准优惠券，把新客变成回头客，门店和网店通用。',
    },
  },
];

// ---------------------------------------------------------------------------
// App templates (industry pricing plans)
// ---------------------------------------------------------------------------

const LITE_PRICE = 68800; // HK$688 per month, no contract
const FLEXI_PRICE = 212500; // HK$2,125 per month, one-year contract
const PREPAY_MONTHS = 24;

/** A template line for a module at its catalogue price. */
function addOn(moduleKey: string, count = 1): SeedTemplateModule {
  const found = modules.find((m) => m.key === moduleKey);
  if (!found) throw new Error(`Unknown module key in seed catalogue: ${moduleKey}`);
  return { moduleKey, monthPrice: found.monthPrice, count };
}

interface PlanCopy {
  description: I18nText;
  modules: SeedTemplateModule[];
}

/** The three plans (Lite, Flexi, Flexi+) of one industry. */
function plansFor(
  industryKey: string,
  label: I18nText,
  lite: PlanCopy,
  flexi: PlanCopy,
  flexiPlus: PlanCopy,
  homePlan: 'flexi' | 'enterprise' = 'flexi',
): SeedAppTemplate[] {
  const name = (tier: string): I18nText => ({
    en: `${label.en} ${tier}`,
    'zh-hk': `${label['zh-hk'] ?? label.en} ${tier}`,
    'zh-cn': `${label['zh-cn'] ?? label.en} ${tier}`,
  });
  return [
    {
      key: `${industryKey}-lite`,
      industryKey,
      name: name('Lite'),
      description: lite.description,
      type: 'lite',
      monthPrice: LITE_PRICE,
      prepayMonth: PREPAY_MONTHS,
      contractMonths: 0,
      showOnHome: false,
      modules: lite.modules,
    },
    {
      key: `${industryKey}-flexi`,
      industryKey,
      name: name('Flexi'),
      description: flexi.description,
      type: 'flexi',
      monthPrice: FLEXI_PRICE,
      prepayMonth: PREPAY_MONTHS,
      contractMonths: 12,
      showOnHome: homePlan === 'flexi',
      modules: flexi.modules,
    },
    {
      key: `${industryKey}-flexi-plus`,
      industryKey,
      name: name('Flexi+'),
      description: flexiPlus.description,
      type: 'enterprise',
      monthPrice: 0,
      prepayMonth: PREPAY_MONTHS,
      contractMonths: 24,
      showOnHome: homePlan === 'enterprise',
      modules: flexiPlus.modules,
    },
  ];
}

export const appTemplates: SeedAppTemplate[] = [
  ...plansFor(
    'restaurant',
    { en: 'Restaurant', 'zh-hk': '餐廳', 'zh-cn': '餐厅' },
    {
      description: {
        en: 'Everything a single outlet needs to take orders and payments, with no contract.',
        'zh-hk': '單店落單收款所需功能一應俱全，毋須簽約。',
        'zh-cn': '单店点单收款所需功能一应俱全，无需签约。',
      },
      modules: [],
    },
    {
      description: {
        en: 'Our most popular restaurant plan: POS plus a kitchen screen, QR table ordering and a loyalty programme, on a one-year contract.',
        'zh-hk': '最受歡迎的餐廳方案：收銀系統配合廚房顯示屏、掃碼點餐及會員積分，一年合約。',
        'zh-cn': '最受欢迎的餐厅方案：收银系统搭配厨房显示屏、扫码点餐和会员积分，一年合约。',
      },
      modules: [addOn('kds'), addOn('qr-self-order'), addOn('loyalty')],
    },
    {
      description: {
        en: 'For busy and multi-outlet restaurants: kiosks, kitchen and pickup screens, online ordering and purchasing, priced around your needs.',
        'zh-hk': '專為繁忙及多分店餐廳而設：自助點餐機、廚房及取餐屏幕、網上訂餐及採購管理，按需報價。',
        'zh-cn': '专为客流量大及多门店餐厅打造：自助点餐机、厨房及取餐屏、线上订餐和采购管理，按需报价。',
      },
      modules: [
        addOn('kds', 2),
        addOn('ods'),
        addOn('qr-self-order'),
        addOn('kiosk-self-order'),
        addOn('online-shop'),
        addOn('purchasing'),
        addOn('loyalty'),
      ],
    },
  ),
  ...plansFor(
    'retail',
    { en: 'Retail', 'zh-hk': '零售', 'zh-cn': '零售' },
    {
      description: {
        en: 'Fast barcode checkout and stock control for one shop, month to month.',
        'zh-hk': '單店條碼收銀及庫存管理，按月付款，毋須簽約。',
        'zh-cn': '单店条码收银与库存管理，按月付费，无需签约。',
      },
      modules: [],
    },
    {
      description: {
        en: 'Shop and web shop share one stock count, with points to bring shoppers back and purchasing to keep shelves full. One-year contract.',
        'zh-hk': '門市及網店共用一套庫存，會員積分吸引回頭客，採購管理確保貨架不缺貨。一年合約。',
        'zh-cn': '门店与网店共用一套库存，会员积分带来回头客，采购管理确保货架不断货。一年合约。',
      },
      modules: [addOn('online-shop'), addOn('loyalty'), addOn('purchasing')],
    },
    {
      description: {
        en: 'For growing retail groups: every sales channel, self-checkout kiosks and pickup screens, priced around your stores.',
        'zh-hk': '為發展中的零售集團而設：全渠道銷售、自助收銀機及取貨屏幕，按店舖規模度身報價。',
        'zh-cn': '为成长中的零售品牌打造：全渠道销售、自助收银机和取货屏，按门店规模定制报价。',
      },
      modules: [addOn('online-shop'), addOn('purchasing'), addOn('loyalty'), addOn('kiosk-self-order'), addOn('ods')],
    },
  ),
  ...plansFor(
    'cafe-bakery',
    { en: 'Café & Bakery', 'zh-hk': '咖啡及餅店', 'zh-cn': '咖啡烘焙' },
    {
      description: {
        en: 'A quick counter POS with QR ordering, so the morning queue never backs up. No contract.',
        'zh-hk': '櫃台快速收銀加掃碼點餐，早市人潮不再堵塞，毋須簽約。',
        'zh-cn': '柜台快速收银加扫码点餐，早高峰不再排长龙，无需签约。',
      },
      modules: [addOn('qr-self-order')],
    },
    {
      description: {
        en: 'Drink tickets on a bar screen, QR ordering and digital stamp cards, on a one-year contract.',
        'zh-hk': '飲品訂單直達出品屏幕，配合掃碼點餐及電子印花卡，一年合約。',
        'zh-cn': '饮品订单直达出品屏，搭配扫码点餐和电子集点卡，一年合约。',
      },
      modules: [addOn('kds'), addOn('qr-self-order'), addOn('loyalty')],
    },
    {
      description: {
        en: 'For café groups and central bakeries: kiosks, pickup screens, online cake orders and supplier purchasing, priced to fit.',
        'zh-hk': '為連鎖咖啡店及中央餅房而設：自助點餐機、取餐屏、網上蛋糕預訂及供應商採購，按需報價。',
        'zh-cn': '为连锁咖啡馆和中央烘焙工坊打造：自助点餐机、取餐屏、线上蛋糕预订和供应商采购，按需报价。',
      },
      modules: [
        addOn('kds'),
        addOn('ods'),
        addOn('qr-self-order'),
        addOn('kiosk-self-order'),
        addOn('online-shop'),
        addOn('purchasing'),
        addOn('loyalty'),
      ],
    },
  ),
  ...plansFor(
    'beauty-wellness',
    { en: 'Beauty & Wellness', 'zh-hk': '美容保健', 'zh-cn': '美容养生' },
    {
      description: {
        en: 'Bookings, checkout and client records for a single salon, with no contract.',
        'zh-hk': '單店預約、收款及客戶檔案管理，毋須簽約。',
        'zh-cn': '单店预约、收款与客户档案管理，无需签约。',
      },
      modules: [],
    },
    {
      description: {
        en: 'Sell packages and gift vouchers online and reward regulars with points, on a one-year contract.',
        'zh-hk': '網上出售療程套票及禮券，以積分獎勵熟客，一年合約。',
        'zh-cn': '线上销售疗程套餐和礼券，用积分回馈老客，一年合约。',
      },
      modules: [addOn('online-shop'), addOn('loyalty')],
    },
    {
      description: {
        en: 'For multi-branch salons and spas: self check-in kiosks, queue screens, product purchasing and shared memberships, priced on request.',
        'zh-hk': '為多分店美容院及水療中心而設：自助登記機、輪候顯示屏、產品採購及跨店會員，價格另議。',
        'zh-cn': '为多门店美容院和水疗中心打造：自助签到机、排队显示屏、产品采购和跨店会员，价格面议。',
      },
      modules: [addOn('loyalty'), addOn('online-shop'), addOn('purchasing'), addOn('kiosk-self-order'), addOn('ods')],
    },
  ),
  ...plansFor(
    'education',
    { en: 'Education', 'zh-hk': '教育', 'zh-cn': '教育' },
    {
      description: {
        en: 'Collect tuition and sell materials at the front desk, month to month.',
        'zh-hk': '櫃台收取學費及出售教材，按月付款，毋須簽約。',
        'zh-cn': '前台收取学费和销售教材，按月付费，无需签约。',
      },
      modules: [],
    },
    {
      description: {
        en: 'Online enrolment and fee payment, plus referral rewards for parents, on a one-year contract.',
        'zh-hk': '網上報名繳費，加上家長推薦獎賞，一年合約。',
        'zh-cn': '在线报名缴费，外加家长推荐奖励，一年合约。',
      },
      modules: [addOn('online-shop'), addOn('loyalty')],
    },
    {
      description: {
        en: 'For multi-centre education groups: online enrolment, self-service kiosks, QR payments and central purchasing of materials, priced on request.',
        'zh-hk': '為多校舍教育機構而設：網上報名、自助繳費機、掃碼付款及教材中央採購，價格另議。',
        'zh-cn': '为多校区教育机构打造：在线报名、自助缴费机、扫码付款和教材集中采购，价格面议。',
      },
      modules: [
        addOn('online-shop'),
        addOn('loyalty'),
        addOn('purchasing'),
        addOn('kiosk-self-order'),
        addOn('qr-self-order'),
      ],
    },
  ),
  ...plansFor(
    'online-store',
    { en: 'Online Store', 'zh-hk': '網店', 'zh-cn': '网店' },
    {
      description: {
        en: 'Your own web shop, connected to a POS for pop-ups and markets. No contract.',
        'zh-hk': '自家網店連接收銀系統，擺市集或開期間限定店同樣適用，毋須簽約。',
        'zh-cn': '自有网店连接收银系统，摆市集或开快闪店同样适用，无需签约。',
      },
      modules: [addOn('online-shop')],
    },
    {
      description: {
        en: 'Web shop, member points and supplier purchasing in one place, on a one-year contract.',
        'zh-hk': '網店、會員積分及供應商採購集中管理，一年合約。',
        'zh-cn': '网店、会员积分和供应商采购集中管理，一年合约。',
      },
      modules: [addOn('online-shop'), addOn('loyalty'), addOn('purchasing')],
    },
    {
      description: {
        en: 'For brands selling across web, social and showrooms: scan-to-buy, showroom kiosks and the full loyalty suite, priced on request.',
        'zh-hk': '為橫跨網店、社交平台及陳列室銷售的品牌而設：掃碼購物、陳列室自助機及完整會員方案，價格另議。',
        'zh-cn': '为横跨网店、社交平台和展厅销售的品牌打造：扫码购物、展厅自助机和完整会员方案，价格面议。',
      },
      modules: [
        addOn('online-shop'),
        addOn('purchasing'),
        addOn('loyalty'),
        addOn('qr-self-order'),
        addOn('kiosk-self-order'),
      ],
    },
  ),
  ...plansFor(
    'chain-franchise',
    { en: 'Chain & Franchise', 'zh-hk': '連鎖加盟', 'zh-cn': '连锁加盟' },
    {
      description: {
        en: 'Start your first branches on the same POS your head office will grow with. No contract.',
        'zh-hk': '首批分店先用起來，日後擴展亦沿用同一系統，毋須簽約。',
        'zh-cn': '先在首批门店用起来，日后扩张沿用同一系统，无需签约。',
      },
      modules: [],
    },
    {
      description: {
        en: 'Central purchasing, shared membership and kitchen screens for a growing group, on a one-year contract.',
        'zh-hk': '中央採購、跨店會員及廚房顯示屏，助發展中的集團穩步擴張，一年合約。',
        'zh-cn': '中央采购、跨店会员和厨房显示屏，助力成长中的集团稳步扩张，一年合约。',
      },
      modules: [addOn('kds'), addOn('purchasing'), addOn('loyalty')],
    },
    {
      description: {
        en: 'Built for chains and franchises: every module, head-office controls and a dedicated account team, with pricing negotiated around your network.',
        'zh-hk': '專為連鎖及加盟品牌打造：全套模組、總部集中管控及專屬客戶團隊，價格按分店網絡商議。',
        'zh-cn': '专为连锁和加盟品牌打造：全套模块、总部集中管控和专属客户团队，价格根据门店网络商议。',
      },
      modules: [
        addOn('kds', 4),
        addOn('ods', 2),
        addOn('qr-self-order'),
        addOn('kiosk-self-order', 2),
        addOn('online-shop'),
        addOn('purchasing'),
        addOn('loyalty'),
      ],
    },
    'enterprise',
  ),
];
