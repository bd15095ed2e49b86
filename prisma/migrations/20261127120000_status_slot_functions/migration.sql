-- Family B issuance draws free status-list slots and marks them inside PostgreSQL (issue 19): a
-- tick used to read each list's 16 KiB allocation map (32 KiB as hex text) and write it back whole,
-- most of the bytes a tick moved. Slot i is bit i counted from the most significant bit of byte 0
-- (the W3C bitstring order); get_bit/set_bit count from the least significant bit, hence 7 - i % 8.

-- Up to cardinality(probes) / per_slot distinct free slots of `allocated`. The caller supplies the
-- randomness (per_slot uniformly random slot numbers for each wanted slot, from a CSPRNG, reduced
-- modulo the list size here): the first free probe wins, uniform among free slots; when all of a
-- slot's probes are taken (a nearly full list), the first free slot after its last probe. Fewer
-- slots than wanted when the list is full. Depends on its arguments only.
CREATE FUNCTION credgate_status_slots_pick(allocated bytea, probes int[], per_slot int) RETURNS int[]
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  size int := length(allocated) * 8;
  wanted int := coalesce(cardinality(probes), 0) / per_slot;
  map bytea := allocated;
  picked int[] := '{}';
  found int;
  p int;
  b int;
  start_byte int;
BEGIN
  IF size = 0 OR per_slot < 1 THEN RETURN picked; END IF;
  FOR slot IN 0 .. wanted - 1 LOOP
    found := NULL;
    FOR k IN 1 .. per_slot LOOP
      p := probes[slot * per_slot + k] % size;
      IF p >= 0 AND get_bit(map, (p / 8) * 8 + 7 - p % 8) = 0 THEN found := p; EXIT; END IF;
    END LOOP;
    IF found IS NULL THEN
      -- Byte by byte from after the last probe, wrapping: a byte below 255 has a free slot.
      start_byte := (abs(probes[slot * per_slot + per_slot]) % size) / 8;
      FOR k IN 1 .. length(map) LOOP
        b := (start_byte + k) % length(map);
        IF get_byte(map, b) <> 255 THEN
          FOR bit IN 0 .. 7 LOOP
            IF get_bit(map, b * 8 + 7 - bit) = 0 THEN found := b * 8 + bit; EXIT; END IF;
          END LOOP;
          EXIT;
        END IF;
      END LOOP;
    END IF;
    EXIT WHEN found IS NULL;
    map := set_bit(map, (found / 8) * 8 + 7 - found % 8, 1);
    picked := picked || found;
  END LOOP;
  RETURN picked;
END $$;

-- `allocated` with every slot of `slots` marked taken.
CREATE FUNCTION credgate_status_slots_mark(allocated bytea, slots int[]) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  map bytea := allocated;
  s int;
BEGIN
  FOREACH s IN ARRAY slots LOOP
    map := set_bit(map, (s / 8) * 8 + 7 - s % 8, 1);
  END LOOP;
  RETURN map;
END $$;
