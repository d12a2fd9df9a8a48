/**
 * Long user turns: a tuning-only companion of long-chats (every question `split: "tune"`, ids `tq…`), written after
 * long-chats' first run showed that its short, fact-dense user turns are easy for the vector signal (R@10 0.955 on
 * its tune half, BM25 0.750), unlike the held-out long histories where BM25 leads. Here the user writes the way
 * people paste context into an assistant: a turn of 90–200 words about a plan or a problem, with the fact a later
 * question asks about said in one sentence inside it (a name, a brand, a place, an amount), and the assistant's long
 * answer often repeats the user's rare words. A question names one of those rare words and rewords the rest, so the
 * lexical signal should find the turn while the turn's vector is spread over everything else it says.
 *
 * Kinds as in long-chats (single, multi, temporal, update), for reading by kind.
 */
import { answer, longChatsWithFacts, REQUESTS, type LongChatKind, type Topic } from './long-chats.js';
import { pick, rng, sample, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';

interface LongTurn {
  text: string;
  key?: string;
  echo?: string;
}

interface LongSession {
  topic: Topic;
  turns: LongTurn[];
}

const SESSIONS: LongSession[] = [
  {
    topic: 'travel',
    turns: [
      {
        key: 'hostel',
        text: "Okay, so here's the situation. My partner and I are planning three weeks in Japan next spring, and we're trying to keep it under budget without it feeling like a backpacking trip from our twenties. We land in Osaka and fly home from Tokyo. In Kyoto we already paid a deposit at a small place called Gion Hanami Lodge, 14,000 yen a night, which felt steep but it's walking distance to everything. We'd like to add Kanazawa and maybe somewhere in the Alps, and we're not sure whether the rail pass still makes sense after the price went up. We also don't want to spend every evening on trains. Could you sketch a route that balances cities and countryside, and tell us whether the rail pass is worth it for that route?",
        echo: 'Three weeks from Osaka to Tokyo with a base at Gion Hanami Lodge in Kyoto is a great start, and the rail pass question depends on how far you go.',
      },
      { text: 'Thanks. One more thing on this trip: we both get a bit overwhelmed by crowds, so how do we see the famous temples without fighting through tour groups? Early mornings are fine for us, we are early risers anyway, but we would rather not set alarms for four every day of the holiday. Is there a pattern to when places are quieter, by weekday or season, that we could plan around?' },
    ],
  },
  {
    topic: 'home',
    turns: [
      { text: "We finally have a free weekend and I want to sort out the spare room, which has turned into a dumping ground since we moved. There are boxes of books, an old sofa bed nobody sleeps on, my partner's drum kit, and a desk I never use because the light is terrible. I'd like it to work as an office most days and a guest room a few times a year. We rent, so nothing permanent, and the budget is small. How would you approach it, and what should we get rid of first?" },
      {
        key: 'boiler2',
        text: "Different topic but related to the flat. The boiler broke down again on Sunday night, the third time since October, and this time the engineer from Porto Gás Assistência said the heat exchanger is cracked and the whole unit is basically finished. The landlord, Senhor Amaral, says he'll replace it but not until after the holidays, so we're on electric heaters for now, which is going to destroy our bill. We already close the doors of rooms we don't use and we've put a draught excluder under the front door. What else can we do to keep the bill down for a month or two, and what should we ask the landlord to put in writing about the replacement?",
        echo: 'A cracked heat exchanger does usually mean a new boiler, and it is worth getting Senhor Amaral to put the replacement date in writing.',
      },
    ],
  },
  {
    topic: 'career',
    turns: [
      {
        key: 'offer',
        text: "I need a second opinion. I've been at Koala Labs for almost four years, I like the team, and the work on the data platform is interesting, but my salary has barely moved. Last week a recruiter from a fintech called Lumen Pay reached out, and after three interviews they offered me 78,000 plus a signing bonus, which is about twenty percent more than I make now. The catch is that they want five days in the office in Lisbon, and I'd have to move. My manager hinted there might be a promotion cycle in spring, but nothing concrete. How do I think this through without just chasing the money, and should I tell my manager about the offer?",
        echo: 'An offer of 78,000 from Lumen Pay is a serious one, and it is worth weighing it against more than the salary.',
      },
      { text: "If I do stay, how do I bring up pay with my manager in a way that doesn't sound like a threat? I've never negotiated before, and honestly the idea of it makes me anxious. I'd like to walk in with something concrete, like numbers from the market and a list of what I've delivered this year, but I don't know how much detail is too much or how to handle it if the answer is simply no." },
    ],
  },
  {
    topic: 'pets',
    turns: [
      {
        key: 'kibble',
        text: "Pixel has been having an upset stomach on and off for a couple of weeks, nothing dramatic, but loose stools and she's pickier than usual. We changed a few things around the same time, so it's hard to tell what's causing it: we started a new walker on weekdays, we moved her bed to the living room, and we switched her food from the chicken one to Acana Freshwater Fish because the shop ran out. She's eating, drinking and playing normally. Is this something to wait out for a few days or should we go to the vet now, and how would you work out which change is the problem?",
        echo: 'Switching to Acana Freshwater Fish suddenly could easily explain an upset stomach, although the other changes may play a part.',
      },
      { text: "She's also started barking at the window whenever someone walks past with another dog, which she never used to do. It's not aggressive exactly, more excited and frustrated, but it goes on for a while and the neighbours have noticed. We don't want to punish her for it. What do people usually do about window barking in a flat, and is it related to the stomach thing or to all the changes at once?" },
    ],
  },
  {
    topic: 'finance',
    turns: [
      {
        key: 'mortgage',
        text: "We're getting serious about buying. We've been saving for three years and have a deposit of about 45,000, and we've been looking at two-bedroom flats in Porto between 250,000 and 280,000. The bank, Millennium BCP, pre-approved us for a mortgage at a variable rate, Euribor plus 0.9, over 35 years, but everyone we talk to says something different about fixed versus variable right now. We're both in stable jobs and don't plan to move for at least ten years. How should we think about fixed versus variable, and is 35 years too long?",
        echo: 'A pre-approval from Millennium BCP at Euribor plus 0.9 is a good starting point, and the fixed or variable choice depends on how much risk you can carry.',
      },
      { text: "And what costs should we budget for on top of the deposit? I keep reading about taxes and fees that people forget, and I don't want to get to the notary and discover we're short. We have a little put aside beyond the deposit, but not a lot, and we'd rather know now than scramble at the end. A rough list with typical ranges would be really helpful." },
    ],
  },
  {
    topic: 'health',
    turns: [
      {
        key: 'migraine',
        text: "I've been getting headaches a lot more this autumn, maybe two or three a week, mostly in the afternoon at work. I drink plenty of water, I'm not on screens more than usual, and I've cut down on coffee. My neurologist, Dr. Rebelo, thinks they're migraines without aura and prescribed sumatriptan to take at the first sign, and asked me to keep a diary for two months. I'm a bit sceptical about the diary, to be honest, it feels like homework. What should I actually write down in it so it's useful, and are there common triggers people overlook?",
        echo: 'A diary for Dr. Rebelo is more useful than it sounds, especially with sumatriptan in the picture.',
      },
      { text: "Also, is there anything I can change about my desk setup or my workday that might help with headaches in general? I sit at the same desk from nine to six, next to a big window, and I tend to skip lunch when things are busy. I've read conflicting things about screen brightness, blue light and posture, so a short list of what actually has evidence behind it would help." },
    ],
  },
  {
    topic: 'cooking',
    turns: [
      { text: "I want to get better at cooking during the week. Right now it's pasta three times, something from the freezer twice, and takeaway at the weekend, and I'm bored of it. I'm happy to spend a couple of hours on Sunday preparing things, but weeknights have to be twenty minutes at most because I get home late. I eat meat but I'd like to cook more vegetables. Could you suggest a Sunday prep routine and five weeknight dinners that build on it?" },
      {
        key: 'oven',
        text: "Follow-up on the cooking: part of the problem is my kitchen. It's tiny, with two gas rings and an oven that doesn't hold its temperature, so roasting is hit and miss. I finally ordered a Ninja Foodi air fryer, the dual-basket one, for 189 euros in the Black Friday sales, and it arrives next week. I've seen people do everything in these, from chicken thighs to cakes, but also people saying it's a glorified fan oven. How would you fit it into the Sunday prep and the weeknight dinners you suggested, and what should I avoid cooking in it?",
        echo: 'A dual-basket Ninja Foodi will take a lot of pressure off a small kitchen with an unreliable oven.',
      },
    ],
  },
  {
    topic: 'fitness',
    turns: [
      {
        key: 'coach',
        text: "So after the half marathon I kind of lost motivation. I was running four times a week through the autumn and now I'm lucky to get out once. It's dark, it's cold, and without a race on the calendar I don't see the point. A friend from work, Joana, runs with a club called Corredores da Foz on Tuesday and Thursday evenings, and she keeps inviting me, but I'm worried I'll be the slowest and hold everyone back. I'd also like to keep lifting at home twice a week. How do I get back into a routine over the winter without burning out?",
        echo: 'Joining Joana at Corredores da Foz could be exactly the structure you need over the winter.',
      },
      { text: "What would a realistic week look like if I want to run three times and lift twice, with a full-time job? I'm worried about doing too much, and I don't really know how to fit the hard and easy days together. Should the club runs be my hard days, and does it matter whether I lift before or after running on the same day?" },
    ],
  },
  {
    topic: 'garden',
    turns: [
      {
        key: 'olive',
        text: "My aunt is moving into a care home and she's asked me to take some of her plants, which is lovely but slightly terrifying. Most are houseplants, but there's an old olive tree in a huge terracotta pot that she's had for about thirty years, and she's very attached to it. It will have to live on our balcony, which faces west and gets strong afternoon sun and a lot of wind. I know nothing about olive trees. How do I move it without killing it, and how should I look after it through its first winter with us?",
        echo: 'A thirty-year-old olive tree in terracotta is tougher than it looks, and a west-facing balcony can suit it well.',
      },
      { text: "The houseplants are a mix: a couple of big monsteras, some peace lilies, a fiddle leaf fig that already looks unhappy, and lots of small succulents. Our flat is bright but dry in winter because of the heating. How should I group them, and what are the usual mistakes people make when they suddenly inherit a lot of plants at once?" },
    ],
  },
  {
    topic: 'music',
    turns: [
      {
        key: 'keyboard',
        text: "Now that I'm taking piano more seriously, the cheap keyboard I started on is holding me back. The keys are light and springy, and Hugo says I'm building bad habits with my touch. I've been reading reviews for weeks and narrowed it down to two digital pianos. Yesterday I played both in a shop in Boavista and ended up putting a deposit on a Roland FP-30X, 650 euros, because the action felt closest to the grand at my lesson. It's going in the living room. How should I set it up, and is it worth buying a proper bench and pedal unit right away?",
        echo: 'The Roland FP-30X is a good choice at 650 euros, and its action is one of the best at that price.',
      },
      { text: "Also, my neighbours. We live in an old building with thin walls and I practise in the evenings after work. With a digital piano I can use headphones, but I'd like to play out loud sometimes, especially at the weekend. What's a reasonable way to handle this, and are there good headphones for piano that won't leave my ears ringing after an hour?" },
    ],
  },
  {
    topic: 'photo',
    turns: [
      { text: "I've been shooting a lot more since I got the camera, but my photos from the Azores trip were disappointing. Landscapes that looked amazing in person come out flat, the skies are often white, and the colours of the lakes never match what I saw. I shot everything in JPEG because I didn't want to deal with editing. Is this a settings problem, an editing problem, or just my eye? And where should I start to improve landscape shots specifically?" },
      {
        key: 'drone',
        text: "Related: for the next trip I'm tempted to try aerial shots. A colleague is selling his DJI Mini 3 with three batteries and the remote for 380 euros, and I've said yes, I'm picking it up on Friday. I know there are rules about where you can fly and I've heard you have to register, but I don't know the details for Portugal or for Spain, where we're going in April. What do I need to sort out legally before I fly it, and any tips for a complete beginner so I don't crash it on day one?",
        echo: 'A DJI Mini 3 with three batteries for 380 euros is a great way to start with aerial photography, and the rules are manageable.',
      },
    ],
  },
  {
    topic: 'cycling',
    turns: [
      {
        key: 'theft',
        text: "Bad week. Someone stole the Cannondale from the bike room in our building on Tuesday night. They cut through a cable lock, which I know now was a mistake, but the bike room has a key and I thought it was safe. I reported it to the PSP and filed a claim with my home insurer, Fidelidade, who say they'll cover it minus a 150 euro excess if I can prove the value. I still have the receipt and the serial number, luckily. What should I do to improve my chances of getting it back, and what kind of lock setup should I use for the next bike?",
        echo: 'Having the receipt and the serial number for the stolen Cannondale will make the Fidelidade claim much easier.',
      },
      { text: "For the replacement I'm wondering whether to get the same kind of gravel bike again or something different, maybe an endurance road bike, since most of my weekend rides turned out to be on tarmac anyway. I'd like something comfortable for three or four hours, with room for wider tyres. What are the real differences between the two for someone like me, and what should I look for when I test ride?" },
    ],
  },
];

const QUESTIONS: { q: string; keys: string[]; kind: LongChatKind }[] = [
  { q: 'How much a night is the Gion Hanami Lodge?', keys: ['hostel'], kind: 'single' },
  { q: 'What did the engineer from Porto Gás say was wrong with the boiler?', keys: ['boiler2'], kind: 'single' },
  { q: 'How much did Lumen Pay offer me?', keys: ['offer'], kind: 'single' },
  { q: 'Which food did we switch Pixel to?', keys: ['kibble'], kind: 'single' },
  { q: 'What rate did Millennium BCP pre-approve us for?', keys: ['mortgage'], kind: 'single' },
  { q: 'What did Dr. Rebelo prescribe for my headaches?', keys: ['migraine'], kind: 'single' },
  { q: 'How much did the Ninja air fryer cost me?', keys: ['oven'], kind: 'single' },
  { q: 'Which running club does Joana go to?', keys: ['coach'], kind: 'single' },
  { q: "How old is my aunt's olive tree?", keys: ['olive'], kind: 'single' },
  { q: 'Which digital piano did I put a deposit on?', keys: ['keyboard'], kind: 'single' },
  { q: 'How much did I pay my colleague for the DJI drone?', keys: ['drone'], kind: 'single' },
  { q: 'Which insurer is covering the stolen bike, and what is the excess?', keys: ['theft'], kind: 'single' },
  { q: 'What happened to the Cannondale I bought for weekend rides?', keys: ['cannondale', 'theft'], kind: 'update' },
  { q: 'What have I bought for my hobbies recently, and for how much?', keys: ['keyboard', 'drone'], kind: 'multi' },
  { q: 'Which did I tell you about first, the Lumen Pay offer or the mortgage pre-approval?', keys: ['offer', 'mortgage'], kind: 'temporal' },
  { q: 'What has happened with Pixel since we adopted her?', keys: ['pixel', 'pixel2', 'kibble'], kind: 'multi' },
];

/** Sessions after long-chats' last one, drawn from their own stream so long-chats stays as it was. */
export function longTurnsCorpus(): Corpus {
  const { corpus: base, factDoc: baseFacts } = longChatsWithFacts();
  const r = rng(22_04);
  const docs: CorpusDoc[] = [];
  const factDoc = new Map<string, string>();
  let t = Date.parse(base.docs.at(-1)!.ts) + 5 * 86_400_000;
  SESSIONS.forEach((s, i) => {
    const session = `T${i + 1}`;
    // One short request of the topic before or after the long turns, as people also ask quick things.
    const turns: LongTurn[] = [...s.turns];
    turns.splice(Math.floor(r() * (turns.length + 1)), 0, { text: pick(r, sample(r, REQUESTS[s.topic], 3)) });
    let n = 0;
    for (const turn of turns) {
      const uid = `${session}:${++n}`;
      docs.push({ id: uid, type: 'message', name: 'user', session, ts: new Date(t).toISOString(), content: turn.text });
      if (turn.key) factDoc.set(turn.key, uid);
      t += (2 + Math.floor(r() * 4)) * 60_000;
      docs.push({ id: `${session}:${++n}`, type: 'message', name: 'assistant', session, ts: new Date(t).toISOString(), content: answer(r, s.topic, turn.echo) });
      t += (3 + Math.floor(r() * 5)) * 60_000;
    }
    t += (5 + Math.floor(r() * 6)) * 86_400_000;
  });
  // The earlier sessions are the haystack: long-chats' memories, then these.
  const all = [...base.docs, ...docs];
  const evidence = (k: string): string => factDoc.get(k) ?? baseFacts.get(k)!;
  const questions: CorpusQuestion[] = QUESTIONS.map((q, i) => ({ id: `tq${i + 1}`, q: q.q, evidence: q.keys.map(evidence), split: 'tune' }));
  return { name: 'long-turns', shape: 'long-chats plus sessions of long user turns that carry a fact in one sentence; tuning questions only', docs: all, questions };
}

export function longTurnsKinds(): Map<string, LongChatKind> {
  return new Map(QUESTIONS.map((q, i) => [`tq${i + 1}`, q.kind]));
}
