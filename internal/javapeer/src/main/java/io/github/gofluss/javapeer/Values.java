package io.github.gofluss.javapeer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tagged JSON of the peers (the same as peers/pyfluss/peer.py's), turned
 * into the Java client's internal row values and back. Plain JSON is used
 * where it is exact, a one-key object tags the rest:
 *
 * <pre>
 * NULL                null
 * BOOLEAN             true / false
 * TINYINT..BIGINT     JSON integer
 * FLOAT, DOUBLE       JSON number, or {"$float": "NaN" | "Infinity" | "-Infinity"}
 * CHAR, STRING        JSON string
 * BINARY, BYTES       {"$bytes": base64}
 * DECIMAL(p,s)        {"$decimal": plain text}
 * DATE                {"$date": "yyyy-mm-dd"}
 * TIME(p)             {"$time": milliseconds of the day}
 * TIMESTAMP(p)        {"$ts": nanoseconds since 1970-01-01T00:00 of the wall clock}
 * TIMESTAMP_LTZ(p)    {"$ts": nanoseconds since the epoch}
 * ARRAY               JSON list
 * MAP                 {"$map": [[k, v], ...]} in stored order
 * ROW                 {"$row": [v, ...]} in field order
 * </pre>
 */
final class Values {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final BigInteger NANOS_PER_MILLI = BigInteger.valueOf(1_000_000);

    private Values() {}

    static GenericRow toRow(RowType type, JsonNode values) {
        if (!values.isArray() || values.size() != type.getFieldCount()) {
            throw new IllegalArgumentException(
                    "row " + values + " does not have the " + type.getFieldCount() + " values of " + type);
        }
        GenericRow row = new GenericRow(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            row.setField(i, toInternal(type.getTypeAt(i), values.get(i)));
        }
        return row;
    }

    static Object toInternal(DataType type, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return v.booleanValue();
            case TINYINT:
                return (byte) v.intValue();
            case SMALLINT:
                return (short) v.intValue();
            case INTEGER:
            case TIME_WITHOUT_TIME_ZONE:
                return v.has("$time") ? v.get("$time").intValue() : v.intValue();
            case BIGINT:
                return v.longValue();
            case FLOAT:
                return (float) toDouble(v);
            case DOUBLE:
                return toDouble(v);
            case CHAR:
            case STRING:
                return BinaryString.fromString(v.textValue());
            case BINARY:
            case BYTES:
                return Base64.getDecoder().decode(v.get("$bytes").textValue());
            case DECIMAL:
                DecimalType d = (DecimalType) type;
                return Decimal.fromBigDecimal(
                        new BigDecimal(v.get("$decimal").textValue()), d.getPrecision(), d.getScale());
            case DATE:
                return (int) LocalDate.parse(v.get("$date").textValue()).toEpochDay();
            case TIMESTAMP_WITHOUT_TIME_ZONE: {
                BigInteger[] qr = floorDivMod(v.get("$ts").bigIntegerValue());
                return TimestampNtz.fromMillis(qr[0].longValueExact(), qr[1].intValueExact());
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                BigInteger[] qr = floorDivMod(v.get("$ts").bigIntegerValue());
                return TimestampLtz.fromEpochMillis(qr[0].longValueExact(), qr[1].intValueExact());
            }
            case ARRAY: {
                DataType elem = ((ArrayType) type).getElementType();
                Object[] out = new Object[v.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = toInternal(elem, v.get(i));
                }
                return new GenericArray(out);
            }
            case MAP: {
                MapType m = (MapType) type;
                Map<Object, Object> out = new LinkedHashMap<>();
                for (JsonNode pair : v.get("$map")) {
                    out.put(toInternal(m.getKeyType(), pair.get(0)), toInternal(m.getValueType(), pair.get(1)));
                }
                return new GenericMap(out);
            }
            case ROW:
                return toRow((RowType) type, v.get("$row"));
            default:
                throw new IllegalArgumentException("unsupported type " + type);
        }
    }

    private static double toDouble(JsonNode v) {
        if (v.has("$float")) {
            return Double.parseDouble(v.get("$float").textValue());
        }
        return v.doubleValue();
    }

    /** Splits nanoseconds into floor(ns / 1e6) and the non-negative rest. */
    private static BigInteger[] floorDivMod(BigInteger ns) {
        BigInteger[] qr = ns.divideAndRemainder(NANOS_PER_MILLI);
        if (qr[1].signum() < 0) {
            qr[0] = qr[0].subtract(BigInteger.ONE);
            qr[1] = qr[1].add(NANOS_PER_MILLI);
        }
        return qr;
    }

    static ArrayNode fromRow(RowType type, InternalRow row) {
        ArrayNode out = NODES.arrayNode();
        for (int i = 0; i < type.getFieldCount(); i++) {
            DataType t = type.getTypeAt(i);
            out.add(fromInternal(t, InternalRow.createFieldGetter(t, i).getFieldOrNull(row)));
        }
        return out;
    }

    static JsonNode fromInternal(DataType type, Object v) {
        if (v == null) {
            return NODES.nullNode();
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return NODES.booleanNode((Boolean) v);
            case TINYINT:
                return NODES.numberNode((Byte) v);
            case SMALLINT:
                return NODES.numberNode((Short) v);
            case INTEGER:
                return NODES.numberNode((Integer) v);
            case BIGINT:
                return NODES.numberNode((Long) v);
            case FLOAT:
                return fromDouble((Float) v);
            case DOUBLE:
                return fromDouble((Double) v);
            case CHAR:
            case STRING:
                return NODES.textNode(v.toString());
            case BINARY:
            case BYTES:
                return tagged("$bytes", NODES.textNode(Base64.getEncoder().encodeToString((byte[]) v)));
            case DECIMAL:
                return tagged("$decimal", NODES.textNode(((Decimal) v).toBigDecimal().toPlainString()));
            case DATE:
                return tagged("$date", NODES.textNode(LocalDate.ofEpochDay((Integer) v).toString()));
            case TIME_WITHOUT_TIME_ZONE:
                return tagged("$time", NODES.numberNode((Integer) v));
            case TIMESTAMP_WITHOUT_TIME_ZONE: {
                TimestampNtz ts = (TimestampNtz) v;
                return tagged("$ts", NODES.numberNode(nanos(ts.getMillisecond(), ts.getNanoOfMillisecond())));
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                TimestampLtz ts = (TimestampLtz) v;
                return tagged("$ts", NODES.numberNode(nanos(ts.getEpochMillisecond(), ts.getNanoOfMillisecond())));
            }
            case ARRAY: {
                DataType elem = ((ArrayType) type).getElementType();
                InternalArray arr = (InternalArray) v;
                InternalArray.ElementGetter get = InternalArray.createElementGetter(elem);
                ArrayNode out = NODES.arrayNode();
                for (int i = 0; i < arr.size(); i++) {
                    out.add(fromInternal(elem, get.getElementOrNull(arr, i)));
                }
                return out;
            }
            case MAP: {
                MapType m = (MapType) type;
                InternalMap map = (InternalMap) v;
                InternalArray keys = map.keyArray();
                InternalArray vals = map.valueArray();
                InternalArray.ElementGetter getK = InternalArray.createElementGetter(m.getKeyType());
                InternalArray.ElementGetter getV = InternalArray.createElementGetter(m.getValueType());
                ArrayNode pairs = NODES.arrayNode();
                for (int i = 0; i < map.size(); i++) {
                    ArrayNode pair = pairs.addArray();
                    pair.add(fromInternal(m.getKeyType(), getK.getElementOrNull(keys, i)));
                    pair.add(fromInternal(m.getValueType(), getV.getElementOrNull(vals, i)));
                }
                return tagged("$map", pairs);
            }
            case ROW:
                return tagged("$row", fromRow((RowType) type, (InternalRow) v));
            default:
                throw new IllegalArgumentException("unsupported type " + type);
        }
    }

    private static JsonNode fromDouble(double d) {
        if (Double.isNaN(d)) {
            return tagged("$float", NODES.textNode("NaN"));
        }
        if (Double.isInfinite(d)) {
            return tagged("$float", NODES.textNode(d > 0 ? "Infinity" : "-Infinity"));
        }
        return NODES.numberNode(d);
    }

    private static BigInteger nanos(long millis, int nanoOfMilli) {
        return BigInteger.valueOf(millis).multiply(NANOS_PER_MILLI).add(BigInteger.valueOf(nanoOfMilli));
    }

    private static ObjectNode tagged(String tag, JsonNode v) {
        ObjectNode o = NODES.objectNode();
        o.set(tag, v);
        return o;
    }

}
