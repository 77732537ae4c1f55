package io.github.gofluss.jdbcpeer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Runs queries through the Flight SQL JDBC driver, one per line of stdin,
 * and prints for each a line "query N", a line "columns name:type,..."
 * (java.sql.Types numbers) and a line "row v|v|..." per row, each value
 * as ResultSet.getString gives it and NULL for SQL NULL. A failing query
 * prints "error MESSAGE" instead. A line "\\meta" prints instead what
 * DatabaseMetaData says of the SQL the server runs, as "meta key=value"
 * lines. The Go test compares the lines.
 *
 * <p>Usage: Query HOST:PORT USER PASSWORD DATABASE
 */
public final class Query {
  private Query() {}

  public static void main(String[] args) throws Exception {
    String addr = args[0], db = args[3];
    Properties props = new Properties();
    props.setProperty("user", args[1]);
    props.setProperty("password", args[2]);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (Connection conn = DriverManager.getConnection("jdbc:arrow-flight-sql://" + addr + "/?useEncryption=false", props)) {
      try (Statement st = conn.createStatement()) {
        st.execute("USE " + db);
      }
      int n = 0;
      for (String q = in.readLine(); q != null; q = in.readLine()) {
        if (q.isBlank()) {
          continue;
        }
        if (q.equals("\\meta")) {
          printMeta(conn.getMetaData());
          continue;
        }
        System.out.println("query " + n++);
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(q)) {
          ResultSetMetaData md = rs.getMetaData();
          List<String> cols = new ArrayList<>();
          for (int i = 1; i <= md.getColumnCount(); i++) {
            cols.add(md.getColumnLabel(i) + ":" + md.getColumnType(i));
          }
          System.out.println("columns " + String.join(",", cols));
          while (rs.next()) {
            List<String> vals = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
              String v = rs.getString(i);
              vals.add(rs.wasNull() ? "NULL" : v);
            }
            System.out.println("row " + String.join("|", vals));
          }
        } catch (java.sql.SQLException e) {
          System.out.println("error " + e.getMessage().replace('\n', ' '));
        }
      }
    }
  }

  /** Prints what the driver read from the server's SqlInfo. */
  private static void printMeta(java.sql.DatabaseMetaData md) throws java.sql.SQLException {
    System.out.println("meta groupBy=" + md.supportsGroupBy() + " groupByUnrelated=" + md.supportsGroupByUnrelated()
        + " correlated=" + md.supportsCorrelatedSubqueries() + " inSubqueries=" + md.supportsSubqueriesInIns()
        + " outerJoins=" + md.supportsOuterJoins() + " fullOuterJoins=" + md.supportsFullOuterJoins()
        + " unionAll=" + md.supportsUnionAll() + " likeEscape=" + md.supportsLikeEscapeClause());
    System.out.println("meta numeric=" + md.getNumericFunctions());
    System.out.println("meta string=" + md.getStringFunctions());
    System.out.println("meta datetime=" + md.getTimeDateFunctions());
    System.out.println("meta system=" + md.getSystemFunctions());
  }
}
