/**
 * Long user–assistant chat histories in the shape of real assistant logs: 56 dated sessions over a year, three
 * to five user turns each; the user states personal facts in their own specific words (names, places, numbers,
 * brands, dates) in passing, and the assistant answers every turn at length (roughly 200–400 words) from topical
 * paragraphs that overlap across topics, sometimes opening by echoing the user's words. Questions come later, in
 * the user's voice: they reuse some of the user's own words and reword the rest.
 *
 * Kinds (for reading results by kind; the bench does not use them): `single` (one user turn answers), `multi`
 * (evidence in two or three sessions), `temporal` (order or time of things told, by session date), `update`
 * (a fact changed in a later session; both turns are evidence, the later one answers).
 *
 * The questions and their evidence were written first; the tune/eval split alternates within each kind and was
 * frozen in the commit that added the corpus, before any retrieval was run on it.
 */
import { alternate, pick, rng, sample, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';

export type Topic = 'photo' | 'pets' | 'cycling' | 'finance' | 'travel' | 'home' | 'music' | 'health' | 'fitness' | 'career' | 'garden' | 'cooking';

export type LongChatKind = 'single' | 'multi' | 'temporal' | 'update';

interface Fact {
  key: string;
  /** 1-based session number: the order of sessions is the order of time. */
  session: number;
  topic: Topic;
  text: string;
  /** The assistant's first sentence when it repeats the user's words. */
  echo?: string;
}

/** What the user said that a question is about. */
const FACTS: Fact[] = [
  { key: 'job', session: 2, topic: 'career', text: "I'm a backend engineer at Koala Labs, mostly Python and a bit of Go, and I've been asked to mentor our new intern. I've never mentored anyone. Where do I even start?", echo: 'Mentoring an intern for the first time as a backend engineer is a great opportunity, and a little structure goes a long way.' },
  { key: 'fuji', session: 4, topic: 'photo', text: 'I finally bought a Fujifilm X-T30 second-hand from a little shop near the Bolhão market, 620 euros with the kit lens. What settings should I learn first?', echo: 'The Fujifilm X-T30 is a lovely camera to learn on, and 620 euros with the kit lens is a fair price.' },
  { key: 'pixel', session: 6, topic: 'pets', text: "We adopted a rescue greyhound, Pixel. She's six, raced on a track in Ireland before the charity brought her over, and she's terrified of the stairs in our building. How can we help her?" },
  { key: 'brompton', session: 7, topic: 'cycling', text: "Three weeks ago I started commuting on a Brompton, 14 km each way along the river path to the office in Matosinhos. My legs are fine but my lower back aches by Thursday. Is the bike set up wrong?", echo: 'Fourteen kilometres each way on a Brompton is a proper commute, and a sore lower back usually points to the riding position.' },
  { key: 'etf', session: 8, topic: 'finance', text: 'I opened a Trade Republic account and set up a savings plan of 250 euros a month into the FTSE All-World ETF. Is once a month fine or should I split it into smaller amounts?' },
  { key: 'azores', session: 9, topic: 'travel', text: "We just booked a week in the Azores for May, staying at a quinta near Furnas on São Miguel. We'll rent a car. What shouldn't we miss?", echo: 'A week on São Miguel with a car is ideal, and staying near Furnas puts you close to the hot springs.' },
  { key: 'paint1', session: 10, topic: 'home', text: "We're repainting the living room in Farrow & Ball Setting Plaster, the pinkish one, and the ceiling is 3.1 metres high. Do we need a scaffold tower or will a ladder do?" },
  { key: 'piano1', session: 11, topic: 'music', text: "I've started jazz piano lessons with a teacher called Marguerite on Thursday evenings. She makes me transcribe Bill Evans solos by ear, which is brutal. Any tips for transcribing?", echo: 'Transcribing Bill Evans by ear is hard work, but it is one of the best things a jazz pianist can do.' },
  { key: 'vitd', session: 12, topic: 'health', text: 'My GP found my vitamin D was at 18 ng/ml, so she put me on 2000 IU a day for three months. Should I take it with food?' },
  { key: 'lift1', session: 13, topic: 'fitness', text: "I've been lifting at home since January and I can now deadlift 110 kg for five reps. How do I keep progressing without a coach?", echo: 'A 110 kg deadlift for five reps after a few months of home training is solid progress.' },
  { key: 'penicillin', session: 14, topic: 'health', text: "I'm allergic to penicillin, I found out as a kid when I came out in hives, and now the dentist wants to give me antibiotics after a wisdom tooth extraction. What should I tell them?" },
  { key: 'seville', session: 15, topic: 'travel', text: 'We also booked a long weekend in Seville for the Feria in April, flights from Porto on Ryanair. Is it too hot to walk around in April?', echo: 'Seville during the Feria in April is usually warm rather than hot, so walking around is very pleasant.' },
  { key: 'tobias1', session: 16, topic: 'career', text: 'We got a new engineering manager this month, Tobias, who came over from Zalando. He seems sharp but very process-heavy. How do I build a good relationship with a new manager?' },
  { key: 'trail', session: 17, topic: 'fitness', text: "I registered for a 10k trail race in Gerês in July, my first race ever. There's about 400 metres of climbing. How should I train for the hills?", echo: 'A first race in Gerês with 400 metres of climbing is a great goal, and hill training is very learnable.' },
  { key: 'vitd2', session: 18, topic: 'health', text: "Six weeks into the vitamin D now and honestly I feel a lot less tired in the afternoons. Could it really be that, or is it just spring?" },
  { key: 'meaco', session: 19, topic: 'home', text: 'The bedroom wall has black spots of damp again, so I bought a Meaco 20L dehumidifier and it pulls about two litres a day out of the air. Where should it sit in the room?', echo: 'Two litres a day from one bedroom shows how much moisture there is, and where the Meaco sits does matter.' },
  { key: 'noodle1', session: 20, topic: 'pets', text: "Our old cat Noodle has been losing weight and the vet diagnosed hyperthyroidism. She's on methimazole, 2.5 mg twice a day, which we hide in tuna. Is that a normal dose?" },
  { key: 'tomato1', session: 21, topic: 'garden', text: 'I put in twelve tomato plants at the allotment in Ramalde this weekend, mostly San Marzano and a few Black Krim. How often should I water them in the first weeks?' },
  { key: 'viltrox', session: 22, topic: 'photo', text: 'I added a Viltrox 33mm f/1.4 lens for 280 euros, mainly for portraits of friends. Is it worth keeping the kit lens too?', echo: 'The Viltrox 33mm f/1.4 is a popular portrait lens, and 280 euros is a good price for it.' },
  { key: 'cannondale', session: 23, topic: 'cycling', text: 'I picked up a used Cannondale Topstone gravel bike for weekend rides, so now the Brompton is just for the commute. How often should I service a gravel bike?' },
  { key: 'pottery', session: 24, topic: 'music', text: "Something different: I signed up for a pottery course at a ceramics studio in Vila Nova de Gaia, Saturday mornings for ten weeks. Is it normal to feel useless at the wheel at first?" },
  { key: 'netflix', session: 25, topic: 'finance', text: 'I cancelled Netflix and Disney+ this month to save about 25 euros. What other monthly costs do people usually forget about?' },
  { key: 'pycon', session: 26, topic: 'career', text: "My proposal got accepted at PyCon Portugal! I'll talk about how we migrated our Celery workers to Temporal at Koala Labs. How long should I rehearse a 30-minute talk?", echo: 'Congratulations on getting accepted at PyCon Portugal, a migration story from Celery to Temporal is exactly what audiences like.' },
  { key: 'coeliac', session: 27, topic: 'cooking', text: "My brother-in-law Rui is coeliac and he's coming for lunch on Sunday. I don't want to poison him by accident. What do I need to watch out for in my kitchen?" },
  { key: 'paint2', session: 28, topic: 'home', text: 'The living room came out beautifully, so now we are doing the hallway in a dark green, Little Greene Studio Green. Do dark colours need a special primer?' },
  { key: 'bp', session: 29, topic: 'health', text: 'At my check-up the GP said my blood pressure was 145 over 90 and asked me to cut down on salt and come back in three months. What are easy ways to eat less salt?', echo: 'A reading of 145 over 90 is worth taking seriously, and cutting salt is one of the most effective changes.' },
  { key: 'porto-half', session: 30, topic: 'fitness', text: 'I survived Gerês! So I signed up for the Porto half marathon in November. That is 21 km on the road, very different from trails. How do I build up from 10k?' },
  { key: 'tomato2', session: 31, topic: 'garden', text: "The slugs got half of my tomatoes at the allotment, only six plants left out of the twelve. Is it too late to replant, or should I protect what's left?", echo: 'Losing six of twelve tomato plants to slugs is painful, but the remaining six can still give you a good harvest.' },
  { key: 'fan', session: 32, topic: 'home', text: 'The dehumidifier helped but the damp came back, so the landlord had the bathroom extractor fan replaced with one that has a humidistat. Should I leave it running all the time?' },
  { key: 'piano2', session: 33, topic: 'music', text: "Marguerite moved to Paris, so I'm now having piano lessons with a new teacher, Hugo, on Tuesday nights. He's more into voicings than transcription. How do I practise voicings?", echo: 'Switching from Marguerite to Hugo gives you a new angle on the piano, and voicings are a great focus.' },
  { key: 'tobias2', session: 34, topic: 'career', text: 'Tobias wants the team to move to two-week sprints and drop our Friday demo, which I actually liked. How do I push back without sounding difficult?' },
  { key: 'noodle2', session: 35, topic: 'pets', text: "Good news, Noodle's thyroid levels are back to normal, so the vet lowered her methimazole to once a day. Do we still need blood tests every month?", echo: 'That is great news about Noodle, and once-a-day methimazole is a common step once levels settle.' },
  { key: 'etf2', session: 36, topic: 'finance', text: 'After my pay rise I raised the Trade Republic savings plan from 250 to 400 euros a month. Should I put the extra into the same ETF or diversify?' },
  { key: 'fig', session: 37, topic: 'garden', text: 'The fig tree my grandfather planted behind his house in Viseu finally gave fruit this year, about forty figs. How do I make jam with them?', echo: 'Forty figs from a tree your grandfather planted is a lovely harvest, and fig jam is easy to make.' },
  { key: 'foz', session: 38, topic: 'cycling', text: "We moved to a flat in Foz last month, so my ride to the office is only 6 km now instead of the old 14. I barely break a sweat. Should I add a longer loop some days?" },
  { key: 'staff', session: 39, topic: 'career', text: "I got promoted to staff engineer at Koala Labs! Tobias says the role is more about influence across teams than writing code. How do I make that shift?", echo: 'Congratulations on becoming a staff engineer, and Tobias is right that the role is about influence.' },
  { key: 'lift2', session: 40, topic: 'fitness', text: 'New personal best today, I deadlifted 125 kg for five reps. My grip started to slip on the last one. Should I use straps or chalk?' },
  { key: 'gym', session: 41, topic: 'finance', text: 'I also cancelled my Holmes Place gym membership, 49 euros a month, since I lift at home now anyway. Where should that money go instead?' },
  { key: 'newark', session: 42, topic: 'travel', text: 'My TAP flight from Lisbon to Boston for the conference got cancelled and they rebooked me through Newark with a five-hour layover. Can I claim compensation?', echo: 'A cancelled TAP flight with a rebooking through Newark may well qualify for compensation.' },
  { key: 'print', session: 43, topic: 'photo', text: "For my mum's birthday I printed my best shot from the Douro valley at A3 on Hahnemühle paper and framed it. Should I sign prints on the front or the back?" },
  { key: 'pixel2', session: 46, topic: 'pets', text: "Pixel finally climbs the stairs on her own now, after months of treats on every step! The new problem is that she pulls hard on the lead whenever she sees a cat. How do we fix that?", echo: 'Pixel climbing the stairs on her own after all those months is a real milestone.' },
  { key: 'diwali', session: 44, topic: 'cooking', text: "I'm hosting a Diwali dinner for eleven people from my team this Saturday, and two of them are vegan. What can I cook that everyone will enjoy?", echo: 'A Diwali dinner for eleven with two vegan guests is very doable if the main dishes are plant-based.' },
];

/** Questions in the user's voice: they reuse some of the user's words and reword the rest. Written with the facts. */
const QUESTIONS: { q: string; keys: string[]; kind: LongChatKind }[] = [
  // single: one user turn answers
  { q: 'How much did I pay for my Fujifilm?', keys: ['fuji'], kind: 'single' },
  { q: 'Where did our greyhound race before we got her?', keys: ['pixel'], kind: 'single' },
  { q: 'Which ETF does my monthly savings plan buy?', keys: ['etf'], kind: 'single' },
  { q: 'What colour did we choose for the living room walls?', keys: ['paint1'], kind: 'single' },
  { q: 'Whose solos did my first jazz teacher make me transcribe?', keys: ['piano1'], kind: 'single' },
  { q: 'Where are we staying on São Miguel?', keys: ['azores'], kind: 'single' },
  { q: 'What vitamin D level did my doctor find?', keys: ['vitd'], kind: 'single' },
  { q: 'Which antibiotic am I allergic to?', keys: ['penicillin'], kind: 'single' },
  { q: 'What was our old cat diagnosed with?', keys: ['noodle1'], kind: 'single' },
  { q: 'What is my conference talk at PyCon about?', keys: ['pycon'], kind: 'single' },
  { q: 'How many figs did my grandfather’s tree give this year?', keys: ['fig'], kind: 'single' },
  { q: 'What did I give my mother for her birthday?', keys: ['print'], kind: 'single' },
  { q: 'Which airport did the airline reroute me through on the way to Boston?', keys: ['newark'], kind: 'single' },
  { q: 'How many guests am I cooking for at the Diwali dinner?', keys: ['diwali'], kind: 'single' },
  { q: 'What health condition does my brother-in-law have?', keys: ['coeliac'], kind: 'single' },
  { q: 'How much water does the Meaco pull out of the bedroom each day?', keys: ['meaco'], kind: 'single' },
  // multi: evidence in two or three sessions
  { q: 'How many bikes do I own now, and what are they?', keys: ['brompton', 'cannondale'], kind: 'multi' },
  { q: 'Which animals live with us, and what are they called?', keys: ['pixel', 'noodle1'], kind: 'multi' },
  { q: 'How much have I spent on camera gear in total?', keys: ['fuji', 'viltrox'], kind: 'multi' },
  { q: 'Which classes or lessons have I signed up for this year?', keys: ['piano1', 'pottery'], kind: 'multi' },
  { q: 'What health issues has my GP flagged this year?', keys: ['vitd', 'bp'], kind: 'multi' },
  { q: 'Which trips have we booked this year?', keys: ['azores', 'seville'], kind: 'multi' },
  { q: 'Which subscriptions and memberships have I cancelled to save money?', keys: ['netflix', 'gym'], kind: 'multi' },
  { q: 'What dietary needs do I have to plan for when I cook for guests?', keys: ['coeliac', 'diwali'], kind: 'multi' },
  { q: 'Which races have I entered this year?', keys: ['trail', 'porto-half'], kind: 'multi' },
  { q: 'What have I told you about my job at Koala Labs?', keys: ['job', 'pycon', 'staff'], kind: 'multi' },
  // temporal: order or time of things told
  { q: 'Which did I buy first, the Fujifilm body or the Viltrox lens?', keys: ['fuji', 'viltrox'], kind: 'temporal' },
  { q: 'When did I start commuting on the Brompton?', keys: ['brompton'], kind: 'temporal' },
  { q: 'Which race did I sign up for first, the trail race or the half marathon?', keys: ['trail', 'porto-half'], kind: 'temporal' },
  { q: 'Which trip did we book first, Seville or the Azores?', keys: ['azores', 'seville'], kind: 'temporal' },
  { q: 'What was the first thing I tried against the damp, and what came after?', keys: ['meaco', 'fan'], kind: 'temporal' },
  { q: 'How many weeks had I been taking vitamin D when I noticed I was less tired?', keys: ['vitd', 'vitd2'], kind: 'temporal' },
  { q: 'Which room did we repaint first, and in which colour?', keys: ['paint1', 'paint2'], kind: 'temporal' },
  { q: 'When did Tobias become my manager?', keys: ['tobias1'], kind: 'temporal' },
  { q: 'What did I do first, cancel the streaming services or the gym membership?', keys: ['netflix', 'gym'], kind: 'temporal' },
  { q: 'Which happened first, the penicillin question for the dentist or the blood pressure check-up?', keys: ['penicillin', 'bp'], kind: 'temporal' },
  // update: a fact changed in a later session (both turns are evidence; the later one answers)
  { q: "What's my current deadlift for five reps?", keys: ['lift1', 'lift2'], kind: 'update' },
  { q: 'How much goes into my Trade Republic savings plan each month now?', keys: ['etf', 'etf2'], kind: 'update' },
  { q: 'How far is my bike ride to the office these days?', keys: ['brompton', 'foz'], kind: 'update' },
  { q: 'How often does Noodle take her methimazole now?', keys: ['noodle1', 'noodle2'], kind: 'update' },
  { q: 'Who teaches me piano now, and on which evening?', keys: ['piano1', 'piano2'], kind: 'update' },
  { q: "What's my job title at Koala Labs now?", keys: ['job', 'staff'], kind: 'update' },
  { q: 'How many tomato plants do I have left at the allotment?', keys: ['tomato1', 'tomato2'], kind: 'update' },
  { q: 'Is Pixel still scared of the stairs in our building?', keys: ['pixel', 'pixel2'], kind: 'update' },
];

/** The user's other turns per topic: requests with no fact a question asks about. */
export const REQUESTS: Record<Topic, string[]> = {
  photo: ['How do I get sharp photos in low light without a flash?', 'What is the difference between aperture priority and shutter priority?', 'How should I back up my photos when travelling?', 'Can you explain the exposure triangle in simple terms?', 'What makes a good portrait background?', 'How do I edit photos so the colours look natural?'],
  pets: ['How often should a dog have its teeth cleaned?', 'What is the best way to introduce a new pet to the household?', 'How do I know if my pet is in pain?', 'Are grain-free diets good for dogs?', 'How do I keep a pet calm at the vet?', 'What should be in a pet first-aid kit?'],
  cycling: ['How do I fix a puncture at the side of the road?', 'What tyre pressure should I run for city riding?', 'How do I stay visible when cycling at night?', 'What should I carry on a long ride?', 'How do I keep my chain from rusting in the rain?', 'Is it worth getting a bike fit?'],
  finance: ['How big should an emergency fund be?', 'What is the difference between an ETF and a mutual fund?', 'How do I make a monthly budget that I actually stick to?', 'Should I pay off debt or invest first?', 'How do capital gains taxes work on ETFs?', 'What is a reasonable savings rate?'],
  travel: ['How do I find cheap flights?', 'What should go in a carry-on bag for a week away?', 'How do I deal with jet lag?', 'Is travel insurance worth it for short trips?', 'How do I plan a road trip on an island?', 'What are good ways to avoid tourist crowds?'],
  home: ['How do I fill cracks in plaster before painting?', 'What is the best way to remove mould from a wall?', 'How do I reduce my heating bill in an old flat?', 'How do I paint a ceiling without streaks?', 'What should I check before signing a new rental contract?', 'How do I stop condensation on the windows?'],
  music: ['How often should I practise scales?', 'How do I read music faster?', 'What is a good metronome routine?', 'How do I memorise a piece?', 'How do I stop rushing the tempo?', 'How do I learn to improvise over chord changes?'],
  health: ['How much water should I drink a day?', 'How much sleep do adults really need?', 'What is a healthy resting heart rate?', 'How do I eat more vegetables without noticing?', 'Are supplements worth taking if I eat well?', 'How do I cope with afternoon energy slumps?'],
  fitness: ['How many rest days a week do I need?', 'What should I eat after a workout?', 'How do I warm up properly before lifting?', 'Is it fine to run and lift on the same day?', 'How do I avoid injuries when training more?', 'How do I stay motivated in winter?'],
  career: ['How do I write a good self-review?', 'How do I ask for a raise?', 'How do I give feedback to a colleague?', 'How do I say no to extra work politely?', 'How do I run a good one-to-one meeting?', 'How do I prepare for a technical interview?'],
  garden: ['When should I prune fruit trees?', 'How do I start a compost heap?', 'What herbs grow well in pots?', 'How do I keep slugs away without chemicals?', 'How do I improve clay soil?', 'When should I sow seeds indoors?'],
  cooking: ['What is a quick weeknight dinner with lentils?', 'How do I keep rice from getting mushy?', 'How do I cook for a big group without stress?', 'What spices should every kitchen have?', 'How long can cooked food stay in the fridge?', 'How do I make a good vegetable stock?'],
};

/** Topics whose advice overlaps: an answer mixes in a neighbour's sentences, as assistants drift. */
const NEAR: Record<Topic, Topic[]> = {
  photo: ['travel', 'music'],
  pets: ['health', 'home'],
  cycling: ['fitness', 'health'],
  finance: ['career', 'home'],
  travel: ['photo', 'finance'],
  home: ['garden', 'finance'],
  music: ['career', 'health'],
  health: ['fitness', 'cooking'],
  fitness: ['health', 'cycling'],
  career: ['finance', 'music'],
  garden: ['home', 'cooking'],
  cooking: ['health', 'garden'],
};

/** Sentences of advice per topic; an answer's paragraphs are drawn from its topic and a neighbour. */
const ADVICE: Record<Topic, string[]> = {
  photo: [
    'Start in aperture priority mode so you control the depth of field while the camera handles the shutter speed.',
    'Auto ISO with a sensible upper limit takes a lot of the guesswork out of changing light.',
    'Learn to read the histogram rather than trusting the screen, which is often too bright outdoors.',
    'A fast prime lens teaches you to move your feet and think about composition.',
    'Shoot in RAW if you plan to edit, because it keeps far more detail in the highlights and shadows.',
    'The golden hour after sunrise and before sunset gives soft, warm light that flatters almost everything.',
    'For portraits, focus on the nearest eye and keep the background simple and well away from your subject.',
    'Film simulations on many cameras are a good starting point if you do not want to spend hours editing.',
    'Back up your photos in two places, one of them off-site or in the cloud.',
    'A cheap lens cloth and a spare battery will save more photos than any expensive accessory.',
    'Printing your best images makes you look at them more critically than any screen does.',
    'Archival paper and pigment inks keep prints from fading for decades.',
    'Composition rules like the rule of thirds are useful to learn and then to break on purpose.',
    'Second-hand cameras are usually a good deal, but check the shutter count and the sensor for dust.',
  ],
  pets: [
    'Give an anxious animal a quiet den where it can retreat and where nobody disturbs it.',
    'Desensitisation works best in tiny steps, rewarding calm behaviour long before any fear shows.',
    'Rescue animals often need weeks or months to decompress before their real personality appears.',
    'Greyhounds and other sighthounds often find stairs and slippery floors strange because they never met them before.',
    'Rugs or runners on slippery floors give a nervous dog confidence.',
    'Older cats should see the vet at least twice a year, because problems like thyroid disease develop quietly.',
    'Hiding tablets in a small amount of strong-smelling food works for many cats, but check it is always eaten.',
    'Regular blood tests are the only way to know whether a medication dose is right.',
    'Weigh older pets every couple of weeks, since weight loss is often the first sign of illness.',
    'Keep feeding areas separate when you have more than one animal.',
    'A predictable daily routine helps anxious animals settle.',
    'Ask your vet before changing any dose, even if your pet seems much better.',
    'Short, frequent training sessions work better than one long one.',
    'Reward-based training builds trust, while punishment tends to make fear worse.',
  ],
  cycling: [
    'Saddle height is the first thing to check: at the bottom of the stroke your knee should be only slightly bent.',
    'Lower back pain on a bike often comes from reaching too far or from a saddle tilted the wrong way.',
    'Folding bikes have a more upright position, which suits short commutes but can strain the back on longer ones.',
    'Keep your tyres at the pressure printed on the sidewall and check them every week.',
    'A clean, lubricated chain makes riding quieter and makes the drivetrain last much longer.',
    'Service a bike you ride daily every few months, and a weekend bike at least once a year.',
    'Gravel bikes are happy on rough paths, but their tyres and brakes need checking after muddy rides.',
    'Front and rear lights are worth having even in daylight on busy roads.',
    'Carry a spare tube, tyre levers and a small pump on anything longer than a short ride.',
    'Ride a longer loop on some days if your commute gets too easy and you want more fitness.',
    'Core strength makes a real difference to comfort on the bike.',
    'Mudguards are the most underrated accessory for anyone who commutes in a rainy city.',
    'A good lock and a habit of locking to something solid prevent most thefts.',
    'Build up distance gradually so your body adapts to the saddle.',
  ],
  finance: [
    'Keep three to six months of expenses in an emergency fund before you invest seriously.',
    'A broad global index fund is a sensible default for long-term investing.',
    'Investing once a month is fine; splitting it into smaller amounts rarely changes the outcome.',
    'Fees compound just like returns, so a low-cost broker and fund matter over decades.',
    'When your income rises, raising your automatic savings first stops lifestyle creep.',
    'Diversify across regions and asset classes rather than picking a few companies.',
    'Subscriptions are easy to forget; review your bank statement every few months and cancel what you do not use.',
    'Gym memberships, streaming services and insurance add-ons are the usual forgotten monthly costs.',
    'Money you free up by cancelling something should be redirected on purpose, or it tends to disappear.',
    'Automate your savings on payday so you never see the money.',
    'Check how your country taxes fund distributions and gains before choosing between funds.',
    'Keep a simple spreadsheet of your accounts and update it once a quarter.',
    'A retirement account with tax relief can be worth more than a regular account over time.',
    'Do not check your portfolio every day; the noise makes it harder to stay the course.',
  ],
  travel: [
    'Rent a car on islands where buses are rare, and book it early in high season.',
    'Plan one free day for every three days of sightseeing so you are not exhausted.',
    'Hot springs and thermal pools are best early in the morning before the tour groups arrive.',
    'Weather on Atlantic islands changes quickly, so pack a rain jacket even in summer.',
    'Spring festivals fill hotels quickly, so book accommodation as soon as your dates are fixed.',
    'Walk the old town in the morning and rest during the hottest part of the afternoon.',
    'If an airline cancels your flight, keep every receipt and ask for the cancellation in writing.',
    'Under European rules, long delays and cancellations can entitle you to compensation and meals.',
    'Long layovers are easier with a lounge pass or a quiet corner and a charged phone.',
    'Keep digital copies of your passport and bookings in a secure place.',
    'Learn a few words of the local language; people appreciate it.',
    'Travel insurance is worth it for expensive or long trips.',
    'Budget airlines charge for almost everything, so read the baggage rules carefully.',
    'Local markets are a good way to eat well and cheaply.',
  ],
  home: [
    'Damp on an outside wall usually comes from condensation rather than a leak, especially in bedrooms.',
    'A dehumidifier works best away from walls and furniture, with the door of the room closed.',
    'Extractor fans with a humidistat switch themselves on when the air gets humid, so you can leave them set.',
    'Clean mould with a proper mould remover and let the wall dry fully before repainting.',
    'High ceilings are easier and safer with a small scaffold tower than with a stepladder.',
    'Dark colours often need two or three coats, and a tinted primer saves one of them.',
    'Fill cracks with a flexible filler and sand it smooth before any paint goes on.',
    'Buy all the paint for one room from the same batch so the colour is even.',
    'Keep the windows slightly open after showers and cooking to let moisture out.',
    'Ask the landlord in writing for repairs, and keep copies of everything.',
    'Photograph the flat when you move in, including any marks on the walls.',
    'Bleed radiators at the start of the heating season.',
    'Draught excluders are a cheap way to cut heating costs.',
    'Mid-sheen finishes hide fewer flaws than matt paint on old walls.',
  ],
  music: [
    'Slow practice is the fastest way to play accurately.',
    'When transcribing, loop a short phrase at half speed and sing it before you find it on the keys.',
    'Record yourself and listen back with fresh ears a day later.',
    'Rootless voicings in the left hand leave space for a bass player and sound more modern.',
    'Practise voicings through the ii–V–I in every key, a few keys a day.',
    'A teacher can spot habits you cannot see yourself.',
    'Short daily practice beats one long weekly session.',
    'Learning a new craft always feels clumsy at first; the first weeks are about your hands learning, not results.',
    'Centring clay on the wheel is the hardest step for beginners and it simply takes repetition.',
    'Keep a practice diary so you can see progress that feels invisible day to day.',
    'Listen to the same recording many times until you can hum every line.',
    'Changing teachers can be refreshing; tell the new one what you worked on before.',
    'Play with other people as early as you can.',
    'Warm up with scales before working on pieces.',
  ],
  health: [
    'Fat-soluble vitamins like vitamin D are absorbed better when taken with a meal that contains some fat.',
    'Vitamin D levels are usually rechecked after about three months of supplements.',
    'Low vitamin D can contribute to tiredness, although many things change at the same time in spring.',
    'Always tell a dentist or doctor about a drug allergy before any prescription, even if it was years ago.',
    'People allergic to penicillin are usually given a different class of antibiotic.',
    'Most salt in a typical diet comes from bread, cheese, processed meat and ready meals rather than the salt shaker.',
    'Cooking with herbs, lemon and spices makes it easier to use less salt.',
    'Blood pressure readings vary, so home measurements over a week give a better picture.',
    'Regular exercise and less alcohol lower blood pressure as well as less salt does.',
    'A regular bedtime helps more than any supplement.',
    'Drink water through the day rather than all at once.',
    'If a symptom persists, get it checked rather than guessing.',
    'A short walk after meals helps digestion and energy.',
    'Keep a simple log of symptoms to show your doctor.',
  ],
  fitness: [
    'Progressive overload means adding a little weight or a rep at a time, week after week.',
    'Without a coach, film your lifts from the side to check your form.',
    'A deload week every six to eight weeks lets your body catch up with the training.',
    'Chalk improves grip for most lifters; straps are useful for heavy back-off sets.',
    'Hill repeats and steady uphill hiking build the strength trail races need.',
    'Practise running downhill too, because descents tire the legs more than people expect.',
    'To move from 10k to a half marathon, lengthen your long run by a kilometre or two each week.',
    'Keep most of your running at an easy, conversational pace.',
    'A first race is about finishing well, not about a time.',
    'Strength work for the hips and calves helps prevent common running injuries.',
    'Sleep and food matter as much as the training itself.',
    'Warm up with lighter sets before working sets.',
    'Rest days are part of the plan, not a break from it.',
    'Taper the last week or two before a race so you arrive fresh.',
  ],
  career: [
    'A first-time mentor should set a weekly slot and agree on goals with the mentee in the first week.',
    'Pair programming is one of the best ways to teach an intern how a codebase really works.',
    'With a new manager, ask early how they like to receive updates and how they will judge your work.',
    'Process-heavy managers often respond well to data about what a change costs the team.',
    'Push back by proposing an experiment with a review date rather than arguing against the change.',
    'A demo at the end of the week keeps work visible and can be kept alongside new rituals.',
    'Rehearse a conference talk out loud at least five or six times, and once in front of colleagues.',
    'Talks about real migrations are popular because the audience can learn from your mistakes.',
    'A staff role is about influence across teams: writing, reviewing designs and unblocking others.',
    'Keep a brag document of your achievements throughout the year.',
    'Regular one-to-ones keep you visible when you work remotely.',
    'Ask what success looks like in the next six months.',
    'Mentoring others is a good way to test whether you enjoy leading.',
    'Negotiate based on market data, not on what you need.',
  ],
  garden: [
    'Young tomato plants need deep watering two or three times a week rather than a little every day.',
    'Water at the base in the morning so the leaves stay dry and disease has less chance.',
    'Slugs do most damage at night; beer traps, copper tape and evening checks all help.',
    'It is rarely too late to replant tomatoes in early summer if you buy sturdy young plants.',
    'Mulch keeps soil moist and cool in summer.',
    'Old fruit trees often crop after a hard winter or a change in pruning.',
    'Figs are ripe when they droop on the stem and feel soft; they do not ripen after picking.',
    'Fig jam needs less pectin than many fruits and sets well with lemon juice.',
    'Paste tomatoes like plum varieties are good for sauces, while large heritage tomatoes are best fresh.',
    'Feed fruiting plants with a potassium-rich fertiliser once flowers appear.',
    'Keep a notebook of what you planted and when.',
    'Allotments reward regular short visits more than long weekend sessions.',
    'Remove diseased leaves promptly to stop problems spreading.',
    'Compost improves almost any soil.',
  ],
  cooking: [
    'Cooking for people with coeliac disease means avoiding cross-contamination, not just obvious bread and pasta.',
    'Use a clean toaster, separate butter and freshly washed boards when cooking gluten-free.',
    'Check labels on stock cubes, soy sauce and spice mixes, which often contain wheat.',
    'For a mixed group, make the main dishes vegan and offer dairy on the side.',
    'Dals, chana masala and roasted vegetable curries are festive and naturally vegan.',
    'Cook for a big group by preparing sauces the day before and keeping the last hour for rice and breads.',
    'Scale side dishes generously; people eat more sides than mains at a shared table.',
    'Season in layers rather than all at the end.',
    'A squeeze of lemon brightens almost any dish.',
    'Roasting vegetables at a high temperature brings out their sweetness.',
    'Keep a few sauces in the fridge so dinner comes together quickly.',
    'Label dishes at a buffet so guests with allergies can choose safely.',
    'Rice cooked with the right amount of water and left to rest stays fluffy.',
    'Simple recipes repeated often become the most reliable family meals.',
  ],
};

const OPENERS = [
  'That is a great question, and the answer depends a little on your situation.',
  'Good question. Here is how I would think about it.',
  'There are a few things worth knowing here.',
  'Happy to help with this.',
  'This comes up a lot, and there is a fairly clear answer.',
  'Let me break this down into a few parts.',
];

const CLOSERS = [
  'If you want, I can go into more detail on any of these points.',
  'Let me know how it goes and we can adjust from there.',
  'The most important thing is to be consistent over time.',
  'Start small, see what works for you, and build from there.',
  'Do not worry about getting everything perfect at the start.',
  'I hope this helps, and feel free to ask follow-up questions.',
];

const TOPICS = Object.keys(REQUESTS) as Topic[];

/** An answer of three paragraphs (about 16 to 22 sentences): its topic's advice, then a neighbour's, then a close. */
export function answer(r: () => number, topic: Topic, echo: string | undefined): string {
  const own = sample(r, ADVICE[topic], 10 + Math.floor(r() * 4));
  const near = sample(r, ADVICE[pick(r, NEAR[topic])], 4 + Math.floor(r() * 4));
  const first = [echo ?? pick(r, OPENERS), ...own.slice(0, Math.ceil(own.length / 2))];
  const second = [...own.slice(Math.ceil(own.length / 2)), ...near.slice(0, 2)];
  const third = [...near.slice(2), pick(r, CLOSERS)];
  return [first, second, third].map((p) => p.join(' ')).join('\n\n');
}

const SESSIONS = 56;

export function longChatsCorpus(): Corpus {
  return longChatsWithFacts().corpus;
}

/** The corpus and the memory id of each fact key (for corpora that extend it). */
export function longChatsWithFacts(): { corpus: Corpus; factDoc: ReadonlyMap<string, string> } {
  const r = rng(22_03);
  const docs: CorpusDoc[] = [];
  const factDoc = new Map<string, string>();
  const bySession = new Map<number, Fact[]>();
  for (const f of FACTS) bySession.set(f.session, [...(bySession.get(f.session) ?? []), f]);
  let t = Date.UTC(2023, 0, 9, 18, 30);
  for (let s = 1; s <= SESSIONS; s++) {
    const session = `L${s}`;
    const facts = bySession.get(s) ?? [];
    const topic = facts[0]?.topic ?? pick(r, TOPICS);
    // Three to five user turns: the fact (at a random place) and the topic's other requests.
    const turns: { text: string; fact?: Fact }[] = sample(r, REQUESTS[topic], 2 + Math.floor(r() * 3) - Math.min(1, facts.length) + 1).map((text) => ({ text }));
    for (const fact of facts) turns.splice(Math.floor(r() * (turns.length + 1)), 0, { text: fact.text, fact });
    let n = 0;
    for (const turn of turns) {
      const uid = `${session}:${++n}`;
      docs.push({ id: uid, type: 'message', name: 'user', session, ts: new Date(t).toISOString(), content: turn.text });
      if (turn.fact) factDoc.set(turn.fact.key, uid);
      t += (1 + Math.floor(r() * 3)) * 60_000;
      docs.push({ id: `${session}:${++n}`, type: 'message', name: 'assistant', session, ts: new Date(t).toISOString(), content: answer(r, turn.fact?.topic ?? topic, turn.fact?.echo) });
      t += (2 + Math.floor(r() * 4)) * 60_000;
    }
    t += (4 + Math.floor(r() * 5)) * 86_400_000 + Math.floor(r() * 6) * 3_600_000;
  }
  const questions: CorpusQuestion[] = alternate(QUESTIONS).map((q, i) => ({ id: `q${i + 1}`, q: q.q, evidence: q.keys.map((k) => factDoc.get(k)!), split: q.split }));
  return { corpus: { name: 'long-chats', shape: 'long user–assistant chats: many dated sessions, long assistant answers on overlapping topics, questions that reuse some of the user’s words', docs, questions }, factDoc };
}

/** Kind of each question by id, for reading results by kind. */
export function longChatKinds(): Map<string, LongChatKind> {
  return new Map(QUESTIONS.map((q, i) => [`q${i + 1}`, q.kind]));
}
