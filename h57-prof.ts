import { calibrateSgp, jointProbability } from '#domain/sgp.ts';
const legs: any = [
  { variable: { kind: 'margin', period: 'full' }, side: 'high', line: 4.5, probability: 0.52 },
  { variable: { kind: 'total', period: 'full' }, side: 'high', line: 221.5, probability: 0.5 }];
const c = calibrateSgp('nba', 0.64);
for (let i = 0; i < 2000; i++) jointProbability(c, legs);
let t = performance.now(); for (let i = 0; i < 5000; i++) jointProbability(c, legs); console.log('joint us', (performance.now() - t) / 5000 * 1000);
