package codec

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// BucketingFunction maps bucket-key bytes to a bucket in [0, numBuckets).
type BucketingFunction interface {
	Bucket(key []byte, numBuckets int) (int, error)
}

// BucketingFor returns the bucketing function of a lake format
// ("" or lance: Fluss; paimon: Paimon; iceberg: Iceberg).
func BucketingFor(lake string) (BucketingFunction, error) {
	switch lake {
	case "", schema.LakeLance:
		return FlussBucketing{}, nil
	case schema.LakePaimon:
		return PaimonBucketing{}, nil
	case schema.LakeIceberg:
		return IcebergBucketing{}, nil
	}
	return nil, fmt.Errorf("codec: no bucketing function for datalake format %q", lake)
}

var (
	errEmptyKey   = errors.New("codec: bucket key must not be empty")
	errNumBuckets = errors.New("codec: number of buckets must be positive")
)

func checkBucketArgs(key []byte, n int) error {
	if len(key) == 0 {
		return errEmptyKey
	}
	if n <= 0 {
		return errNumBuckets
	}
	return nil
}

// FlussBucketing is Fluss's default: murmur hash of the key bytes (seed 42)
// re-mixed by MathUtils.murmurHash, modulo the bucket count.
type FlussBucketing struct{}

// Bucket implements BucketingFunction.
func (FlussBucketing) Bucket(key []byte, n int) (int, error) {
	if err := checkBucketArgs(key, n); err != nil {
		return 0, err
	}
	return int(mixInt(FlussHash(key)) % int32(n)), nil
}

// PaimonBucketing matches Paimon: abs(hash % n) with Java's sign-keeping %.
type PaimonBucketing struct{}

// Bucket implements BucketingFunction.
func (PaimonBucketing) Bucket(key []byte, n int) (int, error) {
	if err := checkBucketArgs(key, n); err != nil {
		return 0, err
	}
	r := FlussHash(key) % int32(n) // Go's % also keeps the dividend's sign
	if r < 0 {
		r = -r
	}
	return int(r), nil
}

// IcebergBucketing matches Iceberg's bucket transform: standard
// murmur3_x86_32 with seed 0, masked to non-negative, modulo n.
type IcebergBucketing struct{}

// Bucket implements BucketingFunction.
func (IcebergBucketing) Bucket(key []byte, n int) (int, error) {
	if err := checkBucketArgs(key, n); err != nil {
		return 0, err
	}
	return int((Murmur3x86(key, 0) & 0x7fffffff) % uint32(n)), nil
}

const (
	murmurC1 = 0xcc9e2d51
	murmurC2 = 0x1b873593
)

func mixK1(k uint32) uint32 {
	k *= murmurC1
	k = bits.RotateLeft32(k, 15)
	return k * murmurC2
}

func mixH1(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func fmix32(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// FlussHash is Fluss's MurmurHashUtils.hashBytes (seed 42). Unlike standard
// Murmur3 each tail byte is mixed on its own, sign-extended to 32 bits.
func FlussHash(b []byte) int32 { return flussHash(b, 42) }

func flussHash(b []byte, seed uint32) int32 {
	h := seed
	aligned := len(b) &^ 3
	for i := 0; i < aligned; i += 4 {
		h = mixH1(h, mixK1(le.Uint32(b[i:])))
	}
	for _, c := range b[aligned:] {
		h = mixH1(h, mixK1(uint32(int32(int8(c)))))
	}
	return int32(fmix32(h ^ uint32(len(b))))
}

// mixInt is Fluss's MathUtils.murmurHash: one mixing round over a 4-byte
// value, then folded to a non-negative int.
func mixInt(code int32) int32 {
	h := mixH1(0, mixK1(uint32(code)))
	v := int32(fmix32(h ^ 4))
	switch {
	case v >= 0:
		return v
	case v == -1<<31:
		return 0
	}
	return -v
}

// Murmur3x86 is the standard 32-bit Murmur3 (tail packed into one word).
func Murmur3x86(b []byte, seed uint32) uint32 {
	h := seed
	aligned := len(b) &^ 3
	for i := 0; i < aligned; i += 4 {
		h = mixH1(h, mixK1(le.Uint32(b[i:])))
	}
	var k uint32
	switch tail := b[aligned:]; len(tail) {
	case 3:
		k ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(tail[0])
		h ^= mixK1(k)
	}
	return fmix32(h ^ uint32(len(b)))
}
