// Entities the corpus varies over, each list split into training and held-out parts.
// Held-out entities never appear in a training task; evaluation uses only them.

export interface Split<T> {
  train: T[];
  heldOut: T[];
}

// Invented company names, many of them, so that the model learns to copy a name from the context
// instead of recalling one of a few dozen it memorised (a first run with real names only did that).
const SYLLABLES = ['Zen', 'Nor', 'Kal', 'Vex', 'Tri', 'Omni', 'Blu', 'Stra', 'Lum', 'Cor', 'Pax', 'Ver', 'Quin', 'Dal', 'Fen', 'Mar', 'Sol', 'Hal', 'Bri', 'Tan'];
const ENDINGS = ['tel', 'net', 'com', 'ify', 'ora', 'ex', 'ia', 'wave', 'link', 'line', 'mart', 'air', 'bank', 'care', 'works', 'go'];
const KINDS = ['', '', '', ' Telecom', ' Mobile', ' Energy', ' Airlines', ' Insurance', ' Home', ' Bank'];

export const INVENTED_COMPANIES: readonly string[] = SYLLABLES.flatMap((s, i) => ENDINGS.map((e, j) => s + e + KINDS[(i * 7 + j * 3) % KINDS.length]));

export const COMPANIES: Split<string> = {
  train: [
    ...INVENTED_COMPANIES,
    'Comcast', 'Verizon', 'AT&T', 'Spectrum', 'T-Mobile', 'Sprint', 'Cox', 'Frontier', 'CenturyLink', 'Optimum',
    'Dish Network', 'DirecTV', 'Rogers', 'Bell Canada', 'Telus', 'Shaw', 'Vodafone', 'Orange', 'BT Group', 'Sky',
    'Virgin Media', 'Deutsche Telekom', 'Telstra', 'Optus', 'Amazon', 'Best Buy', 'Walmart', 'Target', 'Costco',
    'Home Depot', 'IKEA', 'Apple', 'Dell', 'Lenovo', 'Samsung', 'Sony', 'Delta Air Lines', 'United Airlines',
    'Air Canada', 'Expedia', 'Airbnb', 'Uber', 'PayPal', 'Chase Bank', 'Wells Fargo', 'FedEx', 'UPS', 'DHL',
    'Netflix', 'Hulu', 'Spotify', 'Adobe', 'Zappos', 'Wayfair', 'Nordstrom', 'Macy\'s',
  ],
  heldOut: [
    'Xfinity', 'Mediacom', 'Windstream', 'Starlink', 'Lufthansa', 'KLM', 'Etsy', 'Chewy', 'Dyson', 'Nintendo',
    'HSBC', 'Revolut', 'Lyft', 'Canon', 'Philips', 'Peloton',
  ],
};

export interface City {
  name: string;
  timezone: string;
  zh?: string;
}

export const CITIES: Split<City> = {
  train: [
    { name: 'Vancouver', timezone: 'America/Vancouver', zh: '温哥华' },
    { name: 'Toronto', timezone: 'America/Toronto', zh: '多伦多' },
    { name: 'Montreal', timezone: 'America/Toronto', zh: '蒙特利尔' },
    { name: 'New York', timezone: 'America/New_York', zh: '纽约' },
    { name: 'Boston', timezone: 'America/New_York', zh: '波士顿' },
    { name: 'Chicago', timezone: 'America/Chicago', zh: '芝加哥' },
    { name: 'Denver', timezone: 'America/Denver', zh: '丹佛' },
    { name: 'Los Angeles', timezone: 'America/Los_Angeles', zh: '洛杉矶' },
    { name: 'San Francisco', timezone: 'America/Los_Angeles', zh: '旧金山' },
    { name: 'Seattle', timezone: 'America/Los_Angeles', zh: '西雅图' },
    { name: 'Mexico City', timezone: 'America/Mexico_City', zh: '墨西哥城' },
    { name: 'London', timezone: 'Europe/London', zh: '伦敦' },
    { name: 'Paris', timezone: 'Europe/Paris', zh: '巴黎' },
    { name: 'Berlin', timezone: 'Europe/Berlin', zh: '柏林' },
    { name: 'Madrid', timezone: 'Europe/Madrid', zh: '马德里' },
    { name: 'Rome', timezone: 'Europe/Rome', zh: '罗马' },
    { name: 'Amsterdam', timezone: 'Europe/Amsterdam', zh: '阿姆斯特丹' },
    { name: 'Stockholm', timezone: 'Europe/Stockholm', zh: '斯德哥尔摩' },
    { name: 'Moscow', timezone: 'Europe/Moscow', zh: '莫斯科' },
    { name: 'Istanbul', timezone: 'Europe/Istanbul', zh: '伊斯坦布尔' },
    { name: 'Cairo', timezone: 'Africa/Cairo', zh: '开罗' },
    { name: 'Nairobi', timezone: 'Africa/Nairobi', zh: '内罗毕' },
    { name: 'Dubai', timezone: 'Asia/Dubai', zh: '迪拜' },
    { name: 'Mumbai', timezone: 'Asia/Kolkata', zh: '孟买' },
    { name: 'Delhi', timezone: 'Asia/Kolkata', zh: '德里' },
    { name: 'Bangkok', timezone: 'Asia/Bangkok', zh: '曼谷' },
    { name: 'Singapore', timezone: 'Asia/Singapore', zh: '新加坡' },
    { name: 'Beijing', timezone: 'Asia/Shanghai', zh: '北京' },
    { name: 'Shanghai', timezone: 'Asia/Shanghai', zh: '上海' },
    { name: 'Shenzhen', timezone: 'Asia/Shanghai', zh: '深圳' },
    { name: 'Chengdu', timezone: 'Asia/Shanghai', zh: '成都' },
    { name: 'Hong Kong', timezone: 'Asia/Hong_Kong', zh: '香港' },
    { name: 'Taipei', timezone: 'Asia/Taipei', zh: '台北' },
    { name: 'Seoul', timezone: 'Asia/Seoul', zh: '首尔' },
    { name: 'Tokyo', timezone: 'Asia/Tokyo', zh: '东京' },
    { name: 'Osaka', timezone: 'Asia/Tokyo', zh: '大阪' },
    { name: 'Sydney', timezone: 'Australia/Sydney', zh: '悉尼' },
    { name: 'Melbourne', timezone: 'Australia/Melbourne', zh: '墨尔本' },
    { name: 'Auckland', timezone: 'Pacific/Auckland', zh: '奥克兰' },
    { name: 'São Paulo', timezone: 'America/Sao_Paulo', zh: '圣保罗' },
  ],
  heldOut: [
    { name: 'Calgary', timezone: 'America/Edmonton', zh: '卡尔加里' },
    { name: 'Miami', timezone: 'America/New_York', zh: '迈阿密' },
    { name: 'Lisbon', timezone: 'Europe/Lisbon', zh: '里斯本' },
    { name: 'Vienna', timezone: 'Europe/Vienna', zh: '维也纳' },
    { name: 'Athens', timezone: 'Europe/Athens', zh: '雅典' },
    { name: 'Lagos', timezone: 'Africa/Lagos', zh: '拉各斯' },
    { name: 'Jakarta', timezone: 'Asia/Jakarta', zh: '雅加达' },
    { name: 'Hangzhou', timezone: 'Asia/Shanghai', zh: '杭州' },
    { name: 'Kyoto', timezone: 'Asia/Tokyo', zh: '京都' },
    { name: 'Perth', timezone: 'Australia/Perth', zh: '珀斯' },
    { name: 'Buenos Aires', timezone: 'America/Argentina/Buenos_Aires', zh: '布宜诺斯艾利斯' },
    { name: 'Honolulu', timezone: 'Pacific/Honolulu', zh: '檀香山' },
  ],
};

export const PEOPLE: Split<string> = {
  train: ['Dana', 'Alex', 'Priya', 'Marco', 'Lena', 'Omar', 'Yuki', 'Sam', 'Grace', 'Ivan', 'Maya', 'Tom', 'Chen', 'Fatima', 'Lucas'],
  heldOut: ['Nora', 'Kenji', 'Aisha', 'Pablo', 'Zoe'],
};

/** Projects for the file-tools agent: module names and functions defined in them. */
export interface Project {
  root: string;
  lang: 'py' | 'ts';
  modules: Array<{ path: string; functions: string[] }>;
}

export const PROJECTS: Split<Project> = {
  train: [
    { root: 'src', lang: 'py', modules: [
      { path: 'src/billing/invoice.py', functions: ['compute_total', 'apply_discount', 'format_invoice'] },
      { path: 'src/billing/tax.py', functions: ['tax_rate_for', 'round_cents'] },
      { path: 'src/utils/dates.py', functions: ['parse_date', 'days_between', 'next_business_day'] },
      { path: 'src/api/routes.py', functions: ['list_orders', 'get_order', 'cancel_order'] } ] },
    { root: 'app', lang: 'ts', modules: [
      { path: 'app/cart/cart.ts', functions: ['addItem', 'removeItem', 'cartTotal'] },
      { path: 'app/auth/session.ts', functions: ['createSession', 'refreshToken', 'revokeSession'] },
      { path: 'app/lib/format.ts', functions: ['formatPrice', 'formatDate'] } ] },
    { root: 'server', lang: 'py', modules: [
      { path: 'server/cache/lru.py', functions: ['get', 'put', 'evict_oldest'] },
      { path: 'server/net/retry.py', functions: ['backoff_delay', 'with_retries'] },
      { path: 'server/db/pool.py', functions: ['acquire', 'release', 'pool_stats'] } ] },
    { root: 'lib', lang: 'ts', modules: [
      { path: 'lib/parser/lexer.ts', functions: ['nextToken', 'peekChar', 'skipWhitespace'] },
      { path: 'lib/parser/ast.ts', functions: ['makeNode', 'walkTree'] },
      { path: 'lib/io/reader.ts', functions: ['readLines', 'readJson'] } ] },
  ],
  heldOut: [
    { root: 'pkg', lang: 'py', modules: [
      { path: 'pkg/shipping/rates.py', functions: ['quote_rate', 'zone_for_zip'] },
      { path: 'pkg/shipping/labels.py', functions: ['print_label', 'void_label'] } ] },
    { root: 'web', lang: 'ts', modules: [
      { path: 'web/search/index.ts', functions: ['buildIndex', 'queryIndex'] },
      { path: 'web/search/rank.ts', functions: ['scoreDocument', 'topResults'] } ] },
  ],
};
