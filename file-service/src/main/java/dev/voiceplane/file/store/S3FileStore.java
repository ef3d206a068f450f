package dev.voiceplane.file.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Bytes in an S3-compatible object store (AWS S3, MinIO, Ceph, R2, S3Proxy), one object per file. A single PUT is
 * atomic: an interrupted upload leaves no object. The SDK streams the body from the given stream.
 */
public class S3FileStore implements FileStore, AutoCloseable {

    private final S3Client s3;
    private final String bucket;

    public S3FileStore(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    @Override
    public void close() {
        s3.close();
    }

    @Override
    public String bucket() {
        return bucket;
    }

    @Override
    public void write(String key, InputStream source, long size) throws IOException {
        try {
            s3.putObject(put -> put.bucket(bucket).key(key).contentLength(size),
                    RequestBody.fromInputStream(source, size));
        } catch (SdkException | IllegalStateException e) {
            // IllegalStateException: the SDK found the source shorter than declared; no object was written.
            throw new IOException("cannot store " + key + " in bucket " + bucket, e);
        }
    }

    @Override
    public boolean copyTo(String key, OutputStream target) throws IOException {
        try (ResponseInputStream<GetObjectResponse> object = s3.getObject(get -> get.bucket(bucket).key(key))) {
            object.transferTo(target);
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (SdkException e) {
            throw new IOException("cannot read " + key + " from bucket " + bucket, e);
        }
    }

    @Override
    public void delete(String key) throws IOException {
        try {
            s3.deleteObject(delete -> delete.bucket(bucket).key(key));
        } catch (SdkException e) {
            throw new IOException("cannot delete " + key + " from bucket " + bucket, e);
        }
    }

    @Override
    public boolean exists(String key) throws IOException {
        try {
            s3.headObject(head -> head.bucket(bucket).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw new IOException("cannot look up " + key + " in bucket " + bucket, e);
        } catch (SdkException e) {
            throw new IOException("cannot look up " + key + " in bucket " + bucket, e);
        }
    }
}
